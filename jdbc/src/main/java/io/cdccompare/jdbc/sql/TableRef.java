package io.cdccompare.jdbc.sql;

/**
 * A table, optionally qualified by its schema (PostgreSQL) or database (MariaDB). Names are
 * identifiers as the catalog spells them; dialects quote them.
 */
public record TableRef(String schema, String table) {

  public TableRef {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("a table needs a name");
    }
    if (schema != null && schema.isBlank()) {
      schema = null;
    }
  }

  public static TableRef of(String table) {
    return new TableRef(null, table);
  }
}
