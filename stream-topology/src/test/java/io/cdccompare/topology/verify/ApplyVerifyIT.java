package io.cdccompare.topology.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import io.cdccompare.verifier.sql.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The whole path on real servers: a PostgreSQL source captured into 3-partition topics, two
 * apply+verify applications (a PostgreSQL and a MariaDB target, each its own application id)
 * applying the same stream, and full compare runs whose one source scan serves both targets.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class ApplyVerifyIT {
  private static final int INSERTED = 3_000;
  private static final int UPDATED = 600;
  private static final int DELETED = 200;
  private static final int ROWS = INSERTED - DELETED;
  private static final int CHUNK = 500;
  private static final int CHUNKS = 6;
  private static final int PARTITIONS = 3;
  private static final KeyCodec KEYS =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));
  private static final TableName ORDERS = new TableName("public", "orders");

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void bothTargetsApplyTheStreamMatchEveryRowThenReportExactlyTheInjectedDifferences(
      EmbeddedEnvironment env) throws Exception {
    // Given the same table on the source and, empty, on a PostgreSQL and a MariaDB target
    SourceFixture source = new SourceFixture(env);
    source.sql(
        "CREATE TABLE orders (region int NOT NULL, code varchar(20) NOT NULL, qty int NOT NULL,"
            + " price numeric(12,2), note text, created timestamp(6), shipped boolean,"
            + " weight double precision, PRIMARY KEY (region, code))");
    TargetDb postgres = TargetDb.postgres(env, source.prefix);
    TargetDb mariadb = TargetDb.mariadb(env, source.prefix);
    String topic = TableTopics.topicName(source.prefix, ORDERS);
    // the PostgreSQL target applies in batches of 200 and at least every 500 ms; the MariaDB
    // target only when Streams commits (every 300 ms) or at a CLOSE marker
    VerifierSettings pgSettings =
        postgres.settings(env, source.prefix, 200, Duration.ofMillis(500));
    VerifierSettings mariaSettings =
        mariadb.settings(env, source.prefix, 1_000_000, Duration.ofHours(1));

    try (SourceFixture.Running capture = source.startCapture("public.orders");
        VerifierApp pgApp = VerifierApp.start(pgSettings, postgres.audit(pgSettings, topic));
        VerifierApp mariaApp =
            VerifierApp.start(mariaSettings, mariadb.audit(mariaSettings, topic));
        ResultsReader results =
            new ResultsReader(
                env.kafka().bootstrapServers(),
                env.registry().confluentApiUrl(),
                pgSettings.resultsTopic())) {
      // When rows are inserted, updated and deleted on the source, in several transactions
      for (int from = 1; from <= INSERTED; from += 1_000) {
        source.sql(
            "INSERT INTO orders SELECT g % 5, 'c' || lpad(g::text, 5, '0'), g, g * 1.25,"
                + " CASE WHEN g % 10 = 0 THEN NULL ELSE 'note ' || g END,"
                + " timestamp '2024-01-01 00:00:00' + g * interval '1 second'"
                + " + (g % 1000) * interval '1 microsecond', g % 2 = 0, (g % 1000) * 0.125"
                + " FROM generate_series("
                + from
                + ", "
                + (from + 999)
                + ") g");
      }
      source.sql("UPDATE orders SET qty = qty + 1, note = 'updated ' || code WHERE region = 1");
      source.sql("DELETE FROM orders WHERE region = 3 AND qty % 3 = 0");

      // Then both targets catch up: every record of the topic applied, by the checkpoints
      long records = INSERTED + UPDATED + 2L * DELETED; // a delete is followed by a tombstone
      await("targets caught up")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                pgApp.requireHealthy();
                mariaApp.requireHealthy();
                Map<Integer, Long> end = endOffsets(env, topic);
                assertThat(end.values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(records);
                for (TargetDb target : List.of(postgres, mariadb)) {
                  assertThat(target.checkpoints(topic))
                      .as("checkpoints of %s", target.name)
                      .isEqualTo(lastOffsets(end));
                }
              });
      assertThat(postgres.count()).isEqualTo(ROWS);
      assertThat(mariadb.count()).isEqualTo(ROWS);

      // When a full compare runs at deep=100
      Map<String, String> task = source.task("full", "public.orders");
      task.put("chunk", Integer.toString(CHUNK));
      task.put("deep", "100");
      CompareRun.Summary first = new CompareRun(CompareConfig.of(task), false).run();

      // Then every row matched on both targets, and nothing else was found
      assertThat(first.tables().get(0).chunks()).isEqualTo(CHUNKS);
      Map<String, Outcome> clean =
          outcomes(results, first.tables().get(0).runId(), pgApp, mariaApp);
      for (String target : List.of("pg", "maria")) {
        assertThat(clean.get(target))
            .as("first run on %s", target)
            .isEqualTo(new Outcome(ROWS, List.of(), List.of(), List.of(), 0));
      }

      // When differences are made directly on each target: a changed value in chunk 1, a deleted
      // row in chunk 3, an extra row inside chunk 4's key range
      List<Object[]> keys = source.keysInOrder();
      Object[] changed = keys.get(CHUNK + 250);
      Object[] deleted = keys.get(3 * CHUNK + 100);
      Object[] neighbour = keys.get(4 * CHUNK + 200);
      Object[] extra = {neighbour[0], neighbour[1] + "x"};
      for (TargetDb target : List.of(postgres, mariadb)) {
        target.execute(
            "UPDATE " + target.table + " SET note = 'tampered' WHERE region = ? AND code = ?",
            changed);
        target.execute("DELETE FROM " + target.table + " WHERE region = ? AND code = ?", deleted);
        target.execute(
            "INSERT INTO " + target.table + " (region, code, qty) VALUES (?, ?, 1)", extra);
      }

      // And the task runs again
      CompareRun.Summary second = new CompareRun(CompareConfig.of(task), false).run();

      // Then each target reports exactly those three rows, with their keys
      assertThat(second.tables().get(0).runId()).isNotEqualTo(first.tables().get(0).runId());
      Map<String, Outcome> found =
          outcomes(results, second.tables().get(0).runId(), pgApp, mariaApp);
      Outcome expected =
          new Outcome(
              ROWS - 2, List.of(key(changed)), List.of(key(deleted)), List.of(key(extra)), 0);
      for (String target : List.of("pg", "maria")) {
        assertThat(found.get(target)).as("second run on %s", target).isEqualTo(expected);
      }

      // And no offset was ever committed past what the target had applied, while commits with
      // table offsets did happen (the MariaDB target applied only at those commits)
      for (VerifierApp app : List.of(pgApp, mariaApp)) {
        assertThat(app.audit.violations()).as(app.settings.target()).isEmpty();
        assertThat(app.audit.checkedCommits()).as(app.settings.target()).isGreaterThan(3);
      }
    }
  }

  /** What a run found on one target, summed over its chunk results. */
  record Outcome(
      long matched, List<String> failed, List<String> missed, List<String> extra, long inFlight) {}

  /**
   * Waits for every chunk result of the run from both targets (one per chunk and partition, each
   * VERIFIED), then sums them per target. A replayed result must equal the first.
   */
  private static Map<String, Outcome> outcomes(
      ResultsReader results, String runId, VerifierApp... apps) {
    Map<String, ChunkResult> byKey = new TreeMap<>();
    await("results of run " + runId)
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              for (VerifierApp app : apps) {
                app.requireHealthy();
              }
              for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
                ChunkResult before = byKey.putIfAbsent(r.key(), r.value());
                assertThat(before == null || before.equals(r.value()))
                    .as("a replayed result of %s equals the first", r.key())
                    .isTrue();
              }
              return byKey.size() >= CHUNKS * PARTITIONS * apps.length;
            });
    assertThat(byKey).hasSize(CHUNKS * PARTITIONS * apps.length);
    Map<String, Outcome> out = new HashMap<>();
    for (VerifierApp app : apps) {
      String target = app.settings.target();
      List<ChunkResult> mine =
          byKey.values().stream().filter(r -> r.getTarget().equals(target)).toList();
      Set<String> cells = new java.util.HashSet<>();
      long matched = 0;
      long inFlight = 0;
      List<String> failed = new ArrayList<>();
      List<String> missed = new ArrayList<>();
      List<String> extra = new ArrayList<>();
      for (ChunkResult r : mine) {
        assertThat(r.getState())
            .as("%s chunk %d: %s", target, r.getChunk(), r.getError())
            .isEqualTo(ChunkState.VERIFIED);
        assertThat(r.getPartitionCount()).isEqualTo(PARTITIONS);
        assertThat(r.getTable()).isEqualTo("public.orders");
        cells.add(r.getChunk() + "/" + r.getTablePartition());
        matched += r.getCounts().getMatched();
        inFlight += r.getCounts().getInFlight();
        failed.addAll(r.getFailedKeys());
        missed.addAll(r.getMissedKeys());
        extra.addAll(r.getExtraKeys());
      }
      assertThat(cells).hasSize(CHUNKS * PARTITIONS);
      out.put(target, new Outcome(matched, failed, missed, extra, inFlight));
    }
    return out;
  }

  private static String key(Object[] key) {
    return KEYS.encode(List.of(key));
  }

  private static Map<Integer, Long> endOffsets(EmbeddedEnvironment env, String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      Map<Integer, Long> end = new TreeMap<>();
      consumer.endOffsets(partitions).forEach((tp, offset) -> end.put(tp.partition(), offset));
      return end;
    }
  }

  private static Map<Integer, Long> lastOffsets(Map<Integer, Long> end) {
    Map<Integer, Long> last = new TreeMap<>();
    end.forEach((p, offset) -> last.put(p, offset - 1));
    return last;
  }

  /** A target database holding the table {@code orders}. */
  private static final class TargetDb {
    final String name;
    final JdbcServer server;
    final String database;
    final String table;
    final TableName tableName;
    final String bookkeeping;

    private TargetDb(
        String name, JdbcServer server, String database, TableName tableName, String bookkeeping) {
      this.name = name;
      this.server = server;
      this.database = database;
      this.tableName = tableName;
      this.table = tableName.schema() + "." + tableName.table();
      this.bookkeeping = bookkeeping;
    }

    static TargetDb postgres(EmbeddedEnvironment env, String prefix) throws SQLException {
      JdbcServer server = env.targetPostgres();
      String database = server.createDatabase("target_" + prefix);
      TargetDb db =
          new TargetDb("pg", server, database, new TableName("public", "orders"), "cdc_compare");
      db.sql(
          "CREATE SCHEMA cdc_compare",
          "CREATE TABLE orders (region int NOT NULL, code varchar(20) NOT NULL, qty int NOT NULL,"
              + " price numeric(12,2), note text, created timestamp(6), shipped boolean,"
              + " weight double precision, PRIMARY KEY (region, code))");
      return db;
    }

    static TargetDb mariadb(EmbeddedEnvironment env, String prefix) throws SQLException {
      JdbcServer server = env.mariadb();
      String database = server.createDatabase("target_" + prefix);
      String bookkeeping = server.createDatabase("bookkeeping_" + prefix);
      TargetDb db =
          new TargetDb("maria", server, database, new TableName(database, "orders"), bookkeeping);
      db.sql(
          "CREATE TABLE orders (region INT NOT NULL, code VARCHAR(20) NOT NULL, qty INT NOT NULL,"
              + " price DECIMAL(12,2), note TEXT, created DATETIME(6), shipped BOOLEAN,"
              + " weight DOUBLE, PRIMARY KEY (region, code))"
              + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
      return db;
    }

    VerifierSettings settings(
        EmbeddedEnvironment env, String prefix, int batchSize, Duration maxDelay) {
      return VerifierSettings.builder(name)
          .applicationId("verify-" + prefix + "-" + name)
          .bootstrapServers(env.kafka().bootstrapServers())
          .registryUrl(env.registry().confluentApiUrl())
          .topicPrefix(prefix)
          .table(ORDERS, tableName)
          .target(server.jdbcUrl(database), server.user(), server.password())
          .bookkeepingSchema(bookkeeping)
          .applyBatchSize(batchSize)
          .applyMaxDelay(maxDelay)
          .streamsProperty("commit.interval.ms", "300")
          .build();
    }

    CommitAudit audit(VerifierSettings settings, String topic) {
      return new CommitAudit(
          settings.applicationId(),
          Set.of(topic),
          () -> {
            try {
              return connect();
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          },
          server.jdbcUrl(database),
          bookkeeping);
    }

    Connection connect() throws SQLException {
      return server.connect(database);
    }

    void sql(String... statements) throws SQLException {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        for (String statement : statements) {
          s.execute(statement);
        }
      }
    }

    void execute(String sql, Object[] params) throws SQLException {
      try (Connection c = connect();
          PreparedStatement s = c.prepareStatement(sql)) {
        for (int i = 0; i < params.length; i++) {
          s.setObject(i + 1, params[i]);
        }
        assertThat(s.executeUpdate()).as(sql).isEqualTo(1);
      }
    }

    long count() throws SQLException {
      try (Connection c = connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
        rs.next();
        return rs.getLong(1);
      }
    }

    Map<Integer, Long> checkpoints(String topic) throws SQLException {
      Map<Integer, Long> out = new TreeMap<>();
      try (Connection c = connect()) {
        CheckpointStore store =
            new CheckpointStore(c, Dialect.forJdbcUrl(server.jdbcUrl(database)), bookkeeping);
        for (int p = 0; p < PARTITIONS; p++) {
          out.put(
              p,
              store
                  .find("verify-" + topic.substring(0, topic.indexOf('.')) + "-" + name, topic, p)
                  .map(Checkpoint::offset)
                  .orElse(-1L));
        }
      }
      return out;
    }
  }
}
