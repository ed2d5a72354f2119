package io.cdccompare.schemas.serde;

import io.cdccompare.schemas.registry.SchemaRegistry;
import io.cdccompare.schemas.registry.SchemaRegistryException;
import org.apache.avro.Schema;

/** A registry that knows one schema under one chosen id, to see the id's bytes on the wire. */
final class FixedIdRegistry implements SchemaRegistry {
  private final int id;
  private final Schema schema;

  FixedIdRegistry(int id, Schema schema) {
    this.id = id;
    this.schema = schema;
  }

  @Override
  public int register(String subject, Schema s) {
    return idOf(subject, s);
  }

  @Override
  public int idOf(String subject, Schema s) {
    if (!s.equals(schema)) {
      throw new SchemaRegistryException("unknown schema", 404, 40403, null);
    }
    return id;
  }

  @Override
  public Schema schemaById(int wanted) {
    if (wanted != id) {
      throw new SchemaRegistryException("schema id " + wanted + " not found", 404, 40403, null);
    }
    return schema;
  }

  @Override
  public String location() {
    return "fixed";
  }
}
