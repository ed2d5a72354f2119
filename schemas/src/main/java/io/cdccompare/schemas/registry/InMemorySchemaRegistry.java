package io.cdccompare.schemas.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * A schema registry inside this JVM, for tests that need the serdes without a server (unit tests,
 * {@code TopologyTestDriver}). It follows the Confluent API's id rules: ids start at 1, one schema
 * has one id whatever the subject, registering again returns the same id, and unknown subjects,
 * schemas and ids answer "not found" (404 with Confluent's error codes). It checks no
 * compatibility.
 *
 * <p>Serdes configured with {@code schema.registry.url=mock://NAME} share {@link #scope(String)
 * scope NAME}. Thread-safe.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
  private static final Map<String, InMemorySchemaRegistry> SCOPES = new ConcurrentHashMap<>();

  private final String name;
  private final Map<Schema, Integer> ids = new HashMap<>();
  private final List<Schema> schemas = new ArrayList<>();
  private final Map<String, List<Integer>> versionsBySubject = new HashMap<>();

  public InMemorySchemaRegistry() {
    this("in-memory");
  }

  private InMemorySchemaRegistry(String name) {
    this.name = name;
  }

  /** The registry of {@code mock://name}, created on first use and shared in this JVM. */
  public static InMemorySchemaRegistry scope(String name) {
    return SCOPES.computeIfAbsent(name, n -> new InMemorySchemaRegistry("mock://" + n));
  }

  /** Forgets the registry of {@code mock://name}; the next {@link #scope} starts empty. */
  public static void dropScope(String name) {
    SCOPES.remove(name);
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    Integer id = ids.get(schema);
    if (id == null) {
      schemas.add(schema);
      id = schemas.size();
      ids.put(schema, id);
    }
    List<Integer> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
    if (!versions.contains(id)) {
      versions.add(id);
    }
    return id;
  }

  @Override
  public synchronized int idOf(String subject, Schema schema) {
    List<Integer> versions = versionsBySubject.get(subject);
    if (versions == null) {
      throw notFound("subject '" + subject + "' not found", 40401);
    }
    Integer id = ids.get(schema);
    if (id == null || !versions.contains(id)) {
      throw notFound("schema not found under subject '" + subject + "'", 40403);
    }
    return id;
  }

  @Override
  public synchronized Schema schemaById(int id) {
    if (id < 1 || id > schemas.size()) {
      throw notFound("schema id " + id + " not found", 40403);
    }
    return schemas.get(id - 1);
  }

  /** The ids registered under {@code subject}, oldest first (its versions). */
  public synchronized List<Integer> versions(String subject) {
    return List.copyOf(versionsBySubject.getOrDefault(subject, List.of()));
  }

  @Override
  public String location() {
    return name;
  }

  private SchemaRegistryException notFound(String what, int errorCode) {
    return new SchemaRegistryException(
        name + ": " + what + " (HTTP 404, error_code " + errorCode + ")", 404, errorCode, null);
  }

  @Override
  public String toString() {
    return "InMemorySchemaRegistry[" + name + "]";
  }
}
