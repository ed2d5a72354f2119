package io.cdccompare.testsupport;

import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.PostgresServer;
import io.cdccompare.embedded.StockConnectors;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A fresh source database per test on the embedded source PostgreSQL, with its own topic prefix;
 * the capture and compare task configurations over it; and readers of what reached a topic. The
 * capture, compare and verifier tests all start from it (the capture's tests add the running
 * capture: {@code CaptureFixture}).
 */
public class SourceFixture {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static final List<String> CAPTURE_ONLY =
      List.of("topic.partitions", "poll.interval.ms", "heartbeat.interval.ms");

  public final EmbeddedEnvironment env;
  public final String database;
  public final String prefix;

  /**
   * Creates the database.
   *
   * @param stem starts the topic prefix, so a topic's name says which tests made it
   */
  public SourceFixture(EmbeddedEnvironment env, String stem) {
    this.env = env;
    this.prefix =
        stem + SEQUENCE.incrementAndGet() + "x" + Long.toString(System.nanoTime() % 1_000_000, 36);
    this.database = env.sourcePostgres().createDatabase("source_" + prefix);
  }

  public Connection connect() throws SQLException {
    return env.sourcePostgres().connect(database);
  }

  /** Runs each statement in autocommit. */
  public void sql(String... statements) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  /**
   * The settings of a stock Debezium PostgreSQL connector (for the embedded Kafka Connect worker)
   * on this fixture's database and topic prefix: pgoutput, the slot {@code slot} and a publication
   * of the same name filtered to {@code table} ({@code schema.table}), topics created with one
   * partition. Converters and the snapshot mode are the caller's.
   */
  public Map<String, String> debeziumConnector(String slot, String table) {
    return StockConnectors.debeziumPostgres(env.sourcePostgres(), database, prefix, slot, table);
  }

  /**
   * Drops a replication slot of the source once nothing holds it (the task of a connector just
   * deleted lets go of its slot a moment later), trying for up to 30 s.
   *
   * @throws IllegalStateException when the slot is still there after 30 s
   */
  public void dropSlot(String slot) throws SQLException, InterruptedException {
    String where = " FROM pg_replication_slots WHERE slot_name = '" + slot + "'";
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        sql("SELECT pg_drop_replication_slot(slot_name)" + where);
      } catch (SQLException stillActive) {
        // held by a walsender that has not ended yet: try again
      }
      if (rows("SELECT 1" + where).isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("replication slot " + slot + " still held after 30 s");
      }
      Thread.sleep(200);
    }
  }

  /** The rows a query returns, each as its column values. */
  public List<Object[]> rows(String query) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] row = new Object[columns];
        for (int i = 0; i < columns; i++) {
          row[i] = rs.getObject(i + 1);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** A capture of these tables: 3 partitions per table topic, low latency. */
  public Map<String, String> captureConfig(String tables) {
    PostgresServer pg = env.sourcePostgres();
    Map<String, String> config = new HashMap<>();
    config.put("topic.prefix", prefix);
    config.put("bootstrap.servers", env.kafka().bootstrapServers());
    config.put("schema.registry.url", env.registry().confluentApiUrl());
    config.put("source.hostname", pg.host());
    config.put("source.port", Integer.toString(pg.port()));
    config.put("source.database", database);
    config.put("source.user", pg.user());
    config.put("source.password", pg.password());
    config.put("tables", tables);
    config.put("topic.partitions", "3");
    config.put("poll.interval.ms", "10");
    config.put("heartbeat.interval.ms", "1000");
    return config;
  }

  /** A compare task over the capture's source and topics, without a progress line. */
  public Map<String, String> task(String name, String tables) {
    Map<String, String> config = new HashMap<>(captureConfig(tables));
    CAPTURE_ONLY.forEach(config::remove);
    config.put("task.name", name);
    config.put("progress", "off");
    return config;
  }

  /** Reads every record of a topic until {@code done} holds for what was read (or 60 s pass). */
  public List<ConsumerRecord<byte[], byte[]>> read(
      String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(topic)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!done.test(records) && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  /** Reads a topic up to its current end. */
  public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(topic)) {
      Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
      while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  /** A consumer of committed records assigned to every partition of a topic, at its beginning. */
  private KafkaConsumer<byte[], byte[]> fromBeginning(String topic) {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed");
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return consumer;
  }

  public static String key(ConsumerRecord<byte[], byte[]> r) {
    return r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
  }

  /** A header's last value as text, null when the record has none. */
  public static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  public static long count(
      List<ConsumerRecord<byte[], byte[]>> records, Predicate<ConsumerRecord<byte[], byte[]>> p) {
    return records.stream().filter(p).count();
  }
}
