package io.cdccompare.operations.config;

import io.cdccompare.core.table.TableName;
import io.cdccompare.verifier.stream.TargetMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;

/**
 * One target's section; the password never appears in text. {@code mode} and {@code follow.group}
 * are checked together when the file is read: verify-only needs the group, apply-verify refuses
 * one.
 */
record TargetSection(
    String name,
    String url,
    String user,
    String password,
    String bookkeepingSchema,
    String applicationId,
    Map<TableName, TableName> tables,
    TargetMode mode,
    String followGroup) {
  /**
   * A target's keys, after {@code target.<name>.}, with their documentation (the generated
   * docs/reference/configuration.md); {@link #parse} checks them. {@code table.<schema.table>} is
   * the one family of keys.
   */
  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              "url",
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              Importance.HIGH,
              "JDBC URL of the target: jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql:. Target names"
                  + " use letters, digits, _ and -.")
          .define("user", Type.STRING, "", Importance.HIGH, "The target's user (empty by default).")
          .define(
              "password",
              Type.PASSWORD,
              "",
              Importance.HIGH,
              "The target's password (empty by default; use ${env:...} or ${file:...}).")
          .define(
              "bookkeeping.schema",
              Type.STRING,
              null,
              Importance.LOW,
              "Schema (PostgreSQL) or database (MariaDB) of cdc_compare_checkpoints and"
                  + " cdc_compare_verdicts (default: the connection's).")
          .define(
              "application.id",
              Type.STRING,
              null,
              Importance.LOW,
              "Kafka Streams application id: consumer group, internal topics, and the key of the"
                  + " target's checkpoints (default: cdc-compare-verify-<name>).")
          .define(
              "mode",
              Type.STRING,
              "apply-verify",
              ValidString.in("apply-verify", "verify-only"),
              Importance.MEDIUM,
              "apply-verify: the verifier applies the changes and verifies; verify-only: it"
                  + " verifies what another applier wrote.")
          .define(
              "follow.group",
              Type.STRING,
              null,
              Importance.MEDIUM,
              "Required with verify-only: the consumer group id of the applier that writes the"
                  + " target (for a Kafka Connect sink: connect-<connector name>).")
          .define(
              "table.<schema.table>",
              Type.STRING,
              null,
              Importance.MEDIUM,
              "The target table of a source table (default: the same name; on MariaDB, the schema"
                  + " is the database).");

  /** A target's plain keys, after {@code target.<name>.}. */
  static final Set<String> KEYS =
      DEFINITION.names().stream()
          .filter(n -> !n.contains("<"))
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private static final Pattern KEY =
      Pattern.compile("target\\.([A-Za-z0-9_-]+)\\.(table\\.(.+)|.+)");

  /**
   * The targets' sections, checked: known keys only, a URL each, mapped tables in {@code tables}.
   */
  static Map<String, TargetSection> parse(
      Map<String, String> raw, List<String> order, List<TableName> tables) {
    Map<String, Map<String, String>> keys = new LinkedHashMap<>();
    Map<String, Map<TableName, TableName>> mapped = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      if (!e.getKey().startsWith(TargetsConfig.TARGET_PREFIX)) {
        continue;
      }
      Matcher m = KEY.matcher(e.getKey());
      if (!m.matches()) {
        throw new ConfigException(
            e.getKey()
                + ": a target key is target.<name>.<key> with a name of letters, digits, _ or -");
      }
      String name = m.group(1);
      keys.computeIfAbsent(name, n -> new TreeMap<>());
      mapped.computeIfAbsent(name, n -> new LinkedHashMap<>());
      if (m.group(3) != null) {
        TableName source = parseTable(e.getKey(), m.group(3));
        if (!tables.contains(source)) {
          throw new ConfigException(
              e.getKey() + ": table " + source + " is not in " + TargetsConfig.TABLES);
        }
        mapped.get(name).put(source, parseTable(e.getKey(), e.getValue()));
      } else if (KEYS.contains(m.group(2))) {
        keys.get(name).put(m.group(2), e.getValue());
      } else {
        throw new ConfigException(
            "unknown configuration key "
                + e.getKey()
                + " (a target has "
                + String.join(", ", new java.util.TreeSet<>(KEYS))
                + ", table.<schema.table>)");
      }
    }
    if (keys.isEmpty()) {
      throw new ConfigException("define at least one target: target.<name>.url=jdbc:…");
    }
    List<String> names = order.isEmpty() ? new ArrayList<>(keys.keySet()) : order;
    for (String name : names) {
      if (!keys.containsKey(name)) {
        throw new ConfigException(
            TargetsConfig.TARGETS + " names '" + name + "', which has no target." + name + ".url");
      }
    }
    for (String name : keys.keySet()) {
      if (!names.contains(name)) {
        throw new ConfigException(
            "target."
                + name
                + ".* is defined but "
                + TargetsConfig.TARGETS
                + " does not list '"
                + name
                + "'");
      }
    }
    Map<String, TargetSection> sections = new LinkedHashMap<>();
    for (String name : names) {
      Map<String, String> k = keys.get(name);
      String url = k.get("url");
      if (url == null || url.isBlank()) {
        throw new ConfigException("target." + name + ".url is required");
      }
      TargetMode mode = mode(name, k.get("mode"));
      String followGroup = k.get("follow.group");
      boolean hasGroup = followGroup != null && !followGroup.isBlank();
      if (mode == TargetMode.VERIFY_ONLY && !hasGroup) {
        throw new ConfigException(
            "target."
                + name
                + ".follow.group is required when target."
                + name
                + ".mode is verify-only: the consumer group id of the program that applies the"
                + " changes to the target");
      }
      if (mode == TargetMode.APPLY_VERIFY && hasGroup) {
        throw new ConfigException(
            "target."
                + name
                + ".follow.group is set but target."
                + name
                + ".mode is apply-verify: set target."
                + name
                + ".mode=verify-only");
      }
      sections.put(
          name,
          new TargetSection(
              name,
              url,
              k.getOrDefault("user", ""),
              k.getOrDefault("password", ""),
              k.get("bookkeeping.schema"),
              k.get("application.id"),
              Map.copyOf(mapped.get(name)),
              mode,
              hasGroup ? followGroup.trim() : null));
    }
    return sections;
  }

  /** {@code target.<name>.mode}: apply-verify (the default) or verify-only. */
  private static TargetMode mode(String name, String text) {
    if (text == null || text.isBlank()) {
      return TargetMode.APPLY_VERIFY;
    }
    try {
      return TargetMode.parse(text.trim());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("target." + name + ".mode", text, e.getMessage());
    }
  }

  private static TableName parseTable(String key, String text) {
    try {
      return TableName.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, text, e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "TargetSection[" + name + ", " + url.split("\\?")[0] + ", user=" + user + "]";
  }
}
