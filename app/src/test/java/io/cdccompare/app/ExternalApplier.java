package io.cdccompare.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.testsupport.ChildJvm;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Another team's pipeline, as verify-only mode meets it: a plain consumer with its own group that
 * writes the changes of the table topic of {@code items (id int, name varchar, n int)} to a
 * PostgreSQL target with JDBC upserts and deletes, the way a JDBC sink connector does. It skips
 * records with the {@code cdc.marker} header (a Connect {@code Filter} with {@code HasHeaderKey})
 * and tombstones, and commits its Kafka offsets only after the target transaction of the same
 * records committed (at least once).
 *
 * <p>With {@code drop.every=N > 0} it is faulty on purpose: it silently skips every N-th change
 * record it reads (counting from its start) and appends {@code <op> <key>} of each skipped record
 * to the file {@code drop.log}, so a test knows what it lost. Its target connections carry the JDBC
 * {@code ApplicationName} {@code application.name}.
 *
 * <p>It runs in a child JVM ({@link #start}) so that a test can kill it and start it again with the
 * same group.
 */
public final class ExternalApplier {
  static final String MARKER_HEADER = "cdc.marker";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UPSERT =
      "INSERT INTO items (id, name, n) VALUES (?, ?, ?)"
          + " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, n = EXCLUDED.n";
  private static final String DELETE = "DELETE FROM items WHERE id = ?";

  /**
   * What the applier reads and writes.
   *
   * @param dropEvery skip every N-th change record; 0 skips none
   * @param dropLog where the skipped records are listed, one {@code <op> <key>} a line
   */
  record Settings(
      String bootstrapServers,
      String group,
      String topic,
      String jdbcUrl,
      String user,
      String password,
      String applicationName,
      int dropEvery,
      Path dropLog) {

    List<String> args() {
      return List.of(
          bootstrapServers,
          group,
          topic,
          jdbcUrl,
          user,
          password,
          applicationName,
          Integer.toString(dropEvery),
          dropLog.toString());
    }

    static Settings of(String[] a) {
      return new Settings(
          a[0], a[1], a[2], a[3], a[4], a[5], a[6], Integer.parseInt(a[7]), Path.of(a[8]));
    }

    Settings dropping(int every) {
      return new Settings(
          bootstrapServers, group, topic, jdbcUrl, user, password, applicationName, every, dropLog);
    }
  }

  /** The applier's child JVM; closing kills it. */
  record Running(Process process) implements AutoCloseable {
    /** Kills the applier like a crash and waits until it is gone. */
    void kill() throws InterruptedException {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
      if (process.isAlive()) {
        kill();
      }
    }
  }

  private ExternalApplier() {}

  /** Starts an applier in a child JVM with a small heap, its output appended to {@code log}. */
  static Running start(Settings settings, Path log) throws IOException {
    return new Running(
        ChildJvm.of(ExternalApplier.class)
            .heap("128m")
            .logback("logback-applier-child.xml")
            .start(log, settings.args().toArray(String[]::new)));
  }

  /** The skipped records so far, each {@code <op> <key>}. */
  static List<String> dropped(Path dropLog) throws IOException {
    return Files.exists(dropLog) ? Files.readAllLines(dropLog) : List.of();
  }

  public static void main(String[] args) throws Exception {
    Settings s = Settings.of(args);
    Properties db = new Properties();
    db.setProperty("user", s.user());
    db.setProperty("password", s.password());
    db.setProperty("ApplicationName", s.applicationName());
    Map<String, Object> consumer =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            s.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            s.group(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            500,
            // static membership: an applier started again after a kill takes its place in the
            // group at once, instead of after the killed member's session timeout (45 s)
            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
            s.group() + "-applier");
    long changes = 0;
    try (KafkaConsumer<byte[], byte[]> kafka =
            new KafkaConsumer<>(
                consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Connection target = DriverManager.getConnection(s.jdbcUrl(), db);
        PreparedStatement upsert = target.prepareStatement(UPSERT);
        PreparedStatement delete = target.prepareStatement(DELETE);
        PrintWriter drops =
            new PrintWriter(
                Files.newBufferedWriter(
                    s.dropLog(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND),
                true)) {
      target.setAutoCommit(false);
      kafka.subscribe(List.of(s.topic()));
      System.out.println("applier started: group=" + s.group() + " drop.every=" + s.dropEvery());
      Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
      while (true) {
        for (ConsumerRecord<byte[], byte[]> r : kafka.poll(Duration.ofMillis(100))) {
          if (r.headers().lastHeader(MARKER_HEADER) != null || r.value() == null) {
            continue; // a compare marker (filtered like Connect's HasHeaderKey) or a tombstone
          }
          String key = new String(r.key(), StandardCharsets.UTF_8);
          JsonNode payload = JSON.readTree(r.value()).path("payload");
          String op = payload.path("op").asText();
          changes++;
          if (s.dropEvery() > 0 && changes % s.dropEvery() == 0) {
            drops.println(op + " " + key);
            continue;
          }
          apply(upsert, delete, Integer.parseInt(key), op, payload.path("after"));
        }
        target.commit();
        // the positions, also when only markers, tombstones or transaction markers were read
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        kafka.assignment().forEach(p -> positions.put(p, new OffsetAndMetadata(kafka.position(p))));
        if (!positions.equals(committed)) {
          kafka.commitSync(positions);
          committed = positions;
        }
      }
    }
  }

  private static void apply(
      PreparedStatement upsert, PreparedStatement delete, int id, String op, JsonNode after)
      throws SQLException {
    switch (op) {
      case "c", "u", "r" -> {
        upsert.setInt(1, id);
        upsert.setString(2, after.path("name").asText());
        upsert.setInt(3, after.path("n").asInt());
        upsert.executeUpdate();
      }
      case "d" -> {
        delete.setInt(1, id);
        delete.executeUpdate();
      }
      default -> throw new IllegalStateException("unknown op '" + op + "' of key " + id);
    }
  }
}
