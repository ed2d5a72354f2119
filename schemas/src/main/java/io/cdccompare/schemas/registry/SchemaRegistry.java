package io.cdccompare.schemas.registry;

import java.util.Map;
import org.apache.avro.Schema;

/**
 * The part of a schema registry the serdes need, in the terms of the Confluent REST API: subjects
 * hold versions of schemas, and every schema has a registry-wide integer id that travels in the
 * Confluent wire format.
 *
 * <p>Implementations are thread-safe and cache what they learn: an id once known for (subject,
 * schema), and a schema once known for an id, never change in a registry, so callers may call these
 * methods for every record.
 */
public interface SchemaRegistry extends AutoCloseable {

  /** URL scheme of {@link InMemorySchemaRegistry#scope(String) in-JVM registries} for tests. */
  String MOCK_SCHEME = "mock://";

  /**
   * The registry that client configuration names in {@value RegistryClientConfig#URL}: {@code
   * mock://NAME} for the shared in-JVM registry NAME, otherwise a {@link ConfluentRegistryClient}
   * configured by {@link RegistryClientConfig#fromConfigs(Map)}.
   *
   * @throws IllegalArgumentException naming the key that is missing or invalid
   */
  static SchemaRegistry fromConfigs(Map<String, ?> configs) {
    Object url = configs.get(RegistryClientConfig.URL);
    if (url != null && url.toString().strip().startsWith(MOCK_SCHEME)) {
      return InMemorySchemaRegistry.scope(url.toString().strip().substring(MOCK_SCHEME.length()));
    }
    return new ConfluentRegistryClient(RegistryClientConfig.fromConfigs(configs));
  }

  /**
   * Registers {@code schema} under {@code subject} (a new version unless the subject already has
   * it) and returns its id. Idempotent.
   *
   * @throws SchemaRegistryException if the registry refuses it (incompatible, invalid) or cannot be
   *     reached
   */
  int register(String subject, Schema schema);

  /**
   * The id of {@code schema} if it is registered under {@code subject}, without registering it.
   *
   * @throws SchemaRegistryException with {@link SchemaRegistryException#notFound()} true if the
   *     subject or the schema is not registered there
   */
  int idOf(String subject, Schema schema);

  /**
   * The schema with the given id.
   *
   * @throws SchemaRegistryException with {@link SchemaRegistryException#notFound()} true for an id
   *     the registry does not know
   */
  Schema schemaById(int id);

  /** Where this registry is, for messages (the URLs of a remote one). */
  String location();

  /** Releases resources; the default does nothing. */
  @Override
  default void close() {}
}
