package io.cdccompare.capture;

import io.cdccompare.config.ConnectionConfig;
import io.cdccompare.config.ConnectionSettings;
import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import io.cdccompare.config.FileKeys;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;

/**
 * Configuration of the capture: every key declared once with its type, default, validation and
 * documentation. {@code producer.*} settings go to the Kafka producer, {@code debezium.*} settings
 * to the Debezium engine (without the prefix), after ours, so an expert can override anything.
 */
public final class CaptureConfig extends ConnectionConfig {
  public static final String TABLES = "tables";
  public static final String TOPIC_PARTITIONS = "topic.partitions";
  public static final String TOPIC_REPLICATION = "topic.replication.factor";
  public static final String SLOT_NAME = "slot.name";
  public static final String PUBLICATION_NAME = "publication.name";
  public static final String SNAPSHOT = "snapshot";
  public static final String HEARTBEAT_MS = "heartbeat.interval.ms";
  public static final String POLL_MS = "poll.interval.ms";
  public static final String OFFSETS_TOPIC = "offsets.topic";
  public static final String ALERTS_TOPIC = CompareTopics.ALERTS_KEY;
  public static final String NAME = "capture.name";

  /** The one per-table setting: {@code table.<schema.table>.key.columns}. */
  static final String TABLE_PREFIX = "table.";

  static final String KEY_COLUMNS = ".key.columns";

  /**
   * The per-table settings, after {@code table.<schema.table>.}: declared here for the
   * documentation (docs/reference/configuration.md); {@link #keyColumns(Map, List)} checks them.
   */
  static final ConfigDef TABLE_SETTINGS =
      new ConfigDef()
          .define(
              KEY_COLUMNS.substring(1),
              Type.LIST,
              null,
              Importance.MEDIUM,
              "The key of a table without a primary key (default: the primary key), comma"
                  + " separated: NOT NULL columns of a unique index that the table's replica"
                  + " identity sends with every update and delete (ALTER TABLE ... REPLICA IDENTITY"
                  + " USING INDEX ..., or FULL). The capture checks all three and refuses otherwise,"
                  + " naming the statement that fixes it; on a table with a primary key it may only"
                  + " name that key. Give the compare task the same key.columns, and each target"
                  + " table that key as its primary key.");

  static final Set<String> PREFIXES =
      Set.of("producer.", "debezium.", "admin.", "schema.registry.", TABLE_PREFIX);

  private static final java.util.regex.Pattern SIMPLE_COLUMN =
      java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  static final ConfigDef DEFINITION =
      ConnectionSettings.define(new ConfigDef())
          .define(
              TABLES,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConnectionSettings.TableList(),
              Importance.HIGH,
              "Captured tables, comma separated schema.table; quote parts with other characters:"
                  + " \"My Schema\".\"a.b\".")
          .define(
              TOPIC_PARTITIONS,
              Type.INT,
              3,
              Range.between(1, 10_000),
              Importance.MEDIUM,
              "Partitions of each table topic created by the capture. Fixed once chosen: the"
                  + " key-to-partition mapping depends on it.")
          .define(
              TOPIC_REPLICATION,
              Type.SHORT,
              (short) -1,
              Importance.MEDIUM,
              "Replication factor of created topics (-1: the broker's default).")
          .define(
              SLOT_NAME,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "Replication slot name (default: cdc_compare_<prefix>).")
          .define(
              PUBLICATION_NAME,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "Publication name (default: cdc_compare_<prefix>); it is created and kept to exactly the"
                  + " captured tables plus repi.validatetables and repi.signals.")
          .define(
              SNAPSHOT,
              Type.STRING,
              "never",
              ValidString.in("never", "initial"),
              Importance.MEDIUM,
              "never: stream changes from now on; initial: first copy the tables' rows (first run only).")
          .define(
              HEARTBEAT_MS,
              Type.INT,
              10_000,
              Range.atLeast(0),
              Importance.LOW,
              "Debezium heartbeat interval, so an idle source does not keep WAL forever (0: off).")
          .define(
              POLL_MS,
              Type.LONG,
              10L,
              Range.atLeast(1),
              Importance.LOW,
              "How long Debezium waits for new changes per poll; lower is lower latency.")
          .define(
              OFFSETS_TOPIC,
              Type.STRING,
              "",
              Importance.LOW,
              "Topic of the engine's source offsets (default: <prefix>.capture.offsets).")
          .define(
              ALERTS_TOPIC,
              Type.STRING,
              "",
              Importance.LOW,
              "Topic of alert events (default: <prefix>.compare.alerts).")
          .define(
              NAME,
              Type.STRING,
              "",
              Importance.LOW,
              "Name of the engine whose offsets are stored (default: cdc-compare-capture-<prefix>).");

  private final Map<TableName, List<String>> keyColumns;

  private CaptureConfig(Map<String, String> raw) {
    super(raw, new AbstractConfig(DEFINITION, raw, false));
    this.keyColumns = keyColumns(raw, tables());
  }

  /**
   * The configured key of a table without a primary key ({@code table.<schema.table>.key.columns}),
   * empty when none is configured.
   */
  public List<String> keyColumns(TableName table) {
    return keyColumns.getOrDefault(table, List.of());
  }

  /** Every configured key, by table. */
  public Map<TableName, List<String>> keyColumns() {
    return keyColumns;
  }

  private static Map<TableName, List<String>> keyColumns(
      Map<String, String> raw, List<TableName> tables) {
    Map<TableName, List<String>> keys = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(TABLE_PREFIX)) {
        continue;
      }
      if (!key.endsWith(KEY_COLUMNS)
          || key.length() <= TABLE_PREFIX.length() + KEY_COLUMNS.length()) {
        throw new ConfigException(
            "unknown configuration key "
                + key
                + " (the capture's only per-table setting is table.<schema.table>"
                + KEY_COLUMNS
                + ")");
      }
      TableName table;
      try {
        table =
            TableName.parse(
                key.substring(TABLE_PREFIX.length(), key.length() - KEY_COLUMNS.length()));
      } catch (IllegalArgumentException invalid) {
        throw new ConfigException(key, e.getValue(), invalid.getMessage());
      }
      if (!tables.contains(table)) {
        throw new ConfigException(key, e.getValue(), "table " + table + " is not in " + TABLES);
      }
      List<String> columns = new ArrayList<>();
      for (String column : e.getValue().split(",")) {
        String name = column.strip();
        if (!SIMPLE_COLUMN.matcher(name).matches()) {
          throw new ConfigException(
              key,
              e.getValue(),
              "name key columns of letters, digits and _ (not starting with a digit), comma"
                  + " separated");
        }
        columns.add(name);
      }
      keys.put(table, List.copyOf(columns));
    }
    return java.util.Collections.unmodifiableMap(keys);
  }

  /**
   * Every key of a capture file: what it is checked against, and what the generated reference
   * shows.
   */
  public static final FileKeys KEYS =
      FileKeys.of(
          "capture configuration", DEFINITION, PREFIXES, "table.<schema.table>.", TABLE_SETTINGS);

  public static CaptureConfig load(Path file) {
    return load(file, KEYS, CaptureConfig::new);
  }

  public static CaptureConfig of(Map<String, String> values) {
    return of(values, KEYS, CaptureConfig::new);
  }

  /** The source database. */
  public SourceDatabase source() {
    return ConnectionSettings.source(values);
  }

  public List<TableName> tables() {
    return TableName.parseList(values.getString(TABLES));
  }

  public int topicPartitions() {
    return values.getInt(TOPIC_PARTITIONS);
  }

  public short topicReplicationFactor() {
    return values.getShort(TOPIC_REPLICATION);
  }

  public String slotName() {
    return orDefault(SLOT_NAME, defaultSlotName(topicPrefix()));
  }

  public String publicationName() {
    return orDefault(PUBLICATION_NAME, defaultSlotName(topicPrefix()));
  }

  /**
   * The slot (and publication) name of a capture with this topic prefix and no {@code slot.name}.
   */
  public static String defaultSlotName(String topicPrefix) {
    return PipelineNames.slot(topicPrefix);
  }

  public boolean initialSnapshot() {
    return "initial".equals(values.getString(SNAPSHOT));
  }

  public int heartbeatIntervalMs() {
    return values.getInt(HEARTBEAT_MS);
  }

  public long pollIntervalMs() {
    return values.getLong(POLL_MS);
  }

  public String offsetsTopic() {
    return orDefault(OFFSETS_TOPIC, topicPrefix() + ".capture.offsets");
  }

  public String alertsTopic() {
    return orDefault(ALERTS_TOPIC, CompareTopics.defaults(topicPrefix()).alerts());
  }

  public String engineName() {
    return orDefault(NAME, "cdc-compare-capture-" + topicPrefix());
  }

  private String orDefault(String key, String fallback) {
    String v = values.getString(key);
    return v == null || v.isBlank() ? fallback : v;
  }
}
