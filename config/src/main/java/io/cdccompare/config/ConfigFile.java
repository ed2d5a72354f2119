package io.cdccompare.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * One configuration file of one running app: Kafka-style dotted keys in Java properties format,
 * secrets through Kafka's config providers ({@code ${env:NAME}}, {@code ${file:/path:key}}). Every
 * key must be declared in the app's {@link ConfigDef} or start with one of its pass-through
 * prefixes ({@code producer.}, {@code debezium.}, …); anything else is refused with its name.
 */
public final class ConfigFile {
  private ConfigFile() {}

  /** Reads, resolves and checks a file; errors name the file and the key at fault. */
  public static Map<String, String> load(Path file, ConfigDef definition, Set<String> prefixes) {
    Properties props = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      props.load(reader);
    } catch (NoSuchFileException e) {
      throw new ConfigException("configuration file " + file + " does not exist");
    } catch (IOException e) {
      throw new ConfigException(
          "configuration file " + file + " cannot be read: " + e.getMessage());
    }
    Map<String, String> raw = new TreeMap<>();
    props.stringPropertyNames().forEach(k -> raw.put(k, props.getProperty(k).strip()));
    return check(resolve(raw), definition, prefixes, file.toString());
  }

  /** Checks an in-memory configuration the same way (for tests and embedded use). */
  public static Map<String, String> check(
      Map<String, String> values, ConfigDef definition, Set<String> prefixes, String source) {
    List<String> unknown = new ArrayList<>();
    for (String key : values.keySet()) {
      boolean declared = definition.names().contains(key);
      boolean passedThrough = prefixes.stream().anyMatch(key::startsWith);
      if (!declared && !passedThrough) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new ConfigException(
          source
              + ": unknown configuration key"
              + (unknown.size() > 1 ? "s " : " ")
              + String.join(", ", unknown)
              + " (pass-through prefixes: "
              + String.join(", ", prefixes)
              + ")");
    }
    return values;
  }

  /** The settings under a pass-through prefix, with the prefix removed, in file order. */
  public static Map<String, Object> withPrefix(Map<String, String> values, String prefix) {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            out.put(k.substring(prefix.length()), v);
          }
        });
    return out;
  }

  /** Replaces {@code ${env:…}} and {@code ${file:…}} references with their values. */
  static Map<String, String> resolve(Map<String, String> raw) {
    Map<String, ConfigProvider> providers = new HashMap<>();
    providers.put("env", new EnvVarConfigProvider());
    providers.put("file", new FileConfigProvider());
    providers.values().forEach(p -> p.configure(Map.of()));
    Map<String, String> resolved =
        new TreeMap<>(new ConfigTransformer(providers).transform(raw).data());
    for (Map.Entry<String, String> e : resolved.entrySet()) {
      if (e.getValue() != null && e.getValue().contains("${env:")) {
        throw new ConfigException(
            e.getKey(), "<hidden>", "an ${env:…} reference names an unset variable");
      }
    }
    return resolved;
  }
}
