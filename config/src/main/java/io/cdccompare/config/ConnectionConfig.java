package io.cdccompare.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * What the three configuration files (the capture's, a compare task's, the targets file) share:
 * their checked values and raw map, the Kafka connection keys of {@link ConnectionSettings}, and
 * the pass-through settings under a prefix ({@code producer.}, {@code admin.}, {@code
 * schema.registry.} …). Each file's class adds its own keys.
 */
public abstract class ConnectionConfig {
  protected final AbstractConfig values;
  protected final Map<String, String> raw;

  /**
   * @param raw every key of the file, pass-through settings included
   * @param values the file's own keys, checked against its definition
   */
  protected ConnectionConfig(Map<String, String> raw, AbstractConfig values) {
    this.raw = raw;
    this.values = values;
  }

  /**
   * Loads and checks a file with {@link ConfigFile#load} and builds its configuration; an error the
   * build finds is given the file's name in front, as the loading's own errors are.
   */
  protected static <T> T load(Path file, FileKeys keys, Function<Map<String, String>, T> create) {
    Map<String, String> values = ConfigFile.load(file, keys.keys(), keys.passThroughPrefixes());
    try {
      return create.apply(values);
    } catch (ConfigException e) {
      throw new ConfigException(file + ": " + e.getMessage());
    }
  }

  /**
   * Checks settings given as a map with {@link ConfigFile#check} (their order kept) and builds the
   * configuration; {@link FileKeys#what} names it in errors.
   */
  protected static <T> T of(
      Map<String, String> values, FileKeys keys, Function<Map<String, String>, T> create) {
    return create.apply(
        ConfigFile.check(
            new java.util.LinkedHashMap<>(values),
            keys.keys(),
            keys.passThroughPrefixes(),
            keys.what()));
  }

  public String topicPrefix() {
    return values.getString(ConnectionSettings.TOPIC_PREFIX);
  }

  public String bootstrapServers() {
    return String.join(",", values.getList(ConnectionSettings.BOOTSTRAP_SERVERS));
  }

  public String schemaRegistryUrl() {
    return values.getString(ConnectionSettings.REGISTRY_URL);
  }

  /** Settings under a pass-through prefix, with the prefix removed. */
  public Map<String, Object> withPrefix(String prefix) {
    return ConfigFile.withPrefix(raw, prefix);
  }
}
