package io.cdccompare.capture;

import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.table.TableName;
import io.cdccompare.events.DebeziumSettings;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.SignalTable;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The Debezium engine settings of the capture. Value conversions are the ones {@link
 * DebeziumSettings#PINNED} fixes, so the canonical text of a delivered value equals the text of the
 * same value read over JDBC; {@code debezium.*} settings may not loosen them. The publication is
 * managed by the capture ({@code disabled} auto-creation), and offsets are flushed after every
 * acknowledged batch to the offsets topic by {@link OffsetsTopicStore}.
 *
 * <p>Signals are read from the source's {@link SignalTable} only (channel {@code source}), so a key
 * re-send travels through the write-ahead log like any change and its incremental snapshot is
 * ordered with the changes around it. Notifications go to the engine as records (channel {@code
 * sink}) for the topic {@link CaptureNotices#topic}, which the router writes there. The incremental
 * snapshot's chunk size stays Debezium's default (1 024 rows): a re-send's filter names its keys,
 * so a chunk is at most that many keys read by their index.
 *
 * <p>Debezium's JDBC connection sends text parameters untyped ({@code stringtype=unspecified}):
 * Debezium 3.6 reads {@code time}, {@code timestamp} and {@code timestamptz} key values as strings
 * and binds them back as the bounds of its incremental snapshot's chunk query, which PostgreSQL
 * refuses as {@code varchar} ({@code operator does not exist: timestamp > character varying});
 * untyped, the server reads them as the column's type (measured: {@code KeyResendIT}).
 */
final class EngineSettings {
  private EngineSettings() {}

  static Properties engineProperties(CaptureConfig config) {
    Properties p = new Properties();
    p.setProperty("name", config.engineName());
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    // Kafka Connect's KafkaOffsetBackingStore, closing the admin client Debezium's would leave
    p.setProperty("offset.storage", OffsetsTopicStore.class.getName());
    p.setProperty("offset.storage.topic", config.offsetsTopic());
    p.setProperty("offset.storage.partitions", "1");
    p.setProperty(
        "offset.storage.replication.factor", Short.toString(config.topicReplicationFactor()));
    p.setProperty("offset.flush.interval.ms", "0");
    p.setProperty("bootstrap.servers", config.bootstrapServers());
    p.setProperty("database.hostname", config.source().host());
    p.setProperty("database.port", Integer.toString(config.source().port()));
    p.setProperty("database.user", config.source().user());
    p.setProperty("database.password", config.source().password().value());
    p.setProperty("database.dbname", config.source().database());
    p.setProperty("database.stringtype", "unspecified"); // see the class comment
    p.setProperty("topic.prefix", config.topicPrefix());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", config.slotName());
    p.setProperty("publication.name", config.publicationName());
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("table.include.list", includeList(config));
    if (!config.keyColumns().isEmpty()) {
      p.setProperty("message.key.columns", messageKeyColumns(config));
    }
    p.setProperty("signal.enabled.channels", "source");
    p.setProperty("signal.data.collection", SignalTable.DATA_COLLECTION);
    p.setProperty("notification.enabled.channels", "sink");
    p.setProperty("notification.sink.topic.name", CaptureNotices.topic(config.topicPrefix()));
    p.setProperty("snapshot.mode", config.initialSnapshot() ? "initial" : "no_data");
    p.setProperty("heartbeat.interval.ms", Integer.toString(config.heartbeatIntervalMs()));
    p.setProperty("poll.interval.ms", Long.toString(config.pollIntervalMs()));
    DebeziumSettings.PINNED.forEach(p::setProperty);
    p.setProperty("interval.handling.mode", "string");
    p.setProperty("tombstones.on.delete", "false");
    p.setProperty("slot.drop.on.stop", "false");
    p.setProperty("errors.max.retries", "0");
    java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();
    config.withPrefix("debezium.").forEach((k, v) -> overrides.put(k, String.valueOf(v)));
    DebeziumSettings.requirePinned(overrides);
    overrides.forEach(p::setProperty);
    return p;
  }

  /**
   * Debezium's include list is comma separated regular expressions over {@code schema.table}: every
   * character that means something to a regex, and the comma, is escaped, so a name can never widen
   * the capture.
   */
  static String includeList(CaptureConfig config) {
    java.util.List<TableName> tables = new java.util.ArrayList<>(config.tables());
    tables.add(NoteTable.NAME);
    tables.add(SignalTable.NAME);
    return tables.stream()
        .map(t -> literal(t.schema()) + "\\." + literal(t.table()))
        .collect(Collectors.joining(","));
  }

  /**
   * Debezium's keys of tables without a primary key: {@code schema\.table:col,col;…}, the table
   * part a regular expression escaped like the include list (key column names are plain, checked by
   * {@link CaptureConfig}).
   */
  static String messageKeyColumns(CaptureConfig config) {
    return config.keyColumns().entrySet().stream()
        .map(
            e ->
                literal(e.getKey().schema())
                    + "\\."
                    + literal(e.getKey().table())
                    + ":"
                    + String.join(",", e.getValue()))
        .collect(Collectors.joining(";"));
  }

  static String literal(String name) {
    StringBuilder out = new StringBuilder();
    for (char c : name.toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '_') {
        out.append(c);
      } else {
        out.append('\\').append(c);
      }
    }
    return out.toString();
  }
}
