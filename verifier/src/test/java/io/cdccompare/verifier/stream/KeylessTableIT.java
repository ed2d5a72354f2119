package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A source table without a primary key, end to end: captured and compared by the key its
 * configuration names (the NOT NULL columns of a unique index that is its replica identity),
 * applied to a target whose primary key is that key, and verified row by row.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class KeylessTableIT {
  private static final TableName EVENTS = new TableName("public", "events");
  private static final KeyCodec KEYS =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));
  private static final int ROWS = 1_500;

  @Test
  void aKeylessTableIsAppliedAndVerifiedByItsConfiguredKey(EmbeddedEnvironment env)
      throws Exception {
    // Given a keyless source table with a unique key it sends with every change, and the target
    CaptureFixture source = new CaptureFixture(env);
    source.sql(
        "CREATE TABLE events (region int NOT NULL, code varchar(10) NOT NULL, v text)",
        "CREATE UNIQUE INDEX events_key ON events (region, code)",
        "ALTER TABLE events REPLICA IDENTITY USING INDEX events_key");
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("keyless_" + source.prefix);
    sql(
        target,
        database,
        "CREATE TABLE events (region int, code varchar(10), v text,"
            + " PRIMARY KEY (region, code))");
    Map<String, String> capture = source.captureConfig("public.events");
    capture.put("table.public.events.key.columns", "region, code");
    VerifierSettings settings =
        VerifierSettings.builder("keyless")
            .applicationId("verify-" + source.prefix)
            .bootstrapServers(env.kafka().bootstrapServers())
            .registryUrl(env.registry().confluentApiUrl())
            .topicPrefix(source.prefix)
            .table(EVENTS)
            .target(target.jdbcUrl(database), target.user(), target.password())
            .applyMaxDelay(Duration.ofMillis(100))
            .streamsProperty("commit.interval.ms", "200")
            .build();
    try (CaptureFixture.Running running = source.start(capture);
        VerifierApp app =
            VerifierApp.start(settings, CommitAudit.of(settings, target, database, EVENTS));
        ResultsReader results =
            new ResultsReader(
                env.kafka().bootstrapServers(),
                env.registry().confluentApiUrl(),
                settings.tables().resultsTopic())) {
      // When rows are inserted, updated and deleted on the source
      source.sql(
          "INSERT INTO events SELECT g % 3, 'c' || g, 'v' || g FROM generate_series(1, "
              + ROWS
              + ") g",
          "UPDATE events SET v = 'updated' WHERE region = 1",
          "DELETE FROM events WHERE region = 2 AND code LIKE 'c1%'");
      long remaining;
      try (Connection c = source.connect()) {
        remaining = count(c, "SELECT count(*) FROM events");
      }

      // Then the target holds the same rows
      await("target caught up")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                app.requireHealthy();
                try (Connection c = target.connect(database)) {
                  assertThat(count(c, "SELECT count(*) FROM events")).isEqualTo(remaining);
                  assertThat(count(c, "SELECT count(*) FROM events WHERE v = 'updated'"))
                      .isEqualTo(ROWS / 3);
                }
              });

      // When a compare keyed by the configured key runs, then again after a change made on the
      // target alone: every row matches the first time
      Map<String, String> task = source.task("keyless", "public.events");
      task.put("table.public.events.key.columns", "region, code");
      task.put("chunk", "400");
      task.put("deep", "100");
      CompareRun.Summary clean = new CompareRun(CompareConfig.of(task), false).run();
      assertThat(clean.tables().get(0).chunks()).isEqualTo((remaining + 399) / 400);
      assertThat(failed(results, clean.tables().get(0), app)).isEmpty();
      sql(target, database, "UPDATE events SET v = 'tampered' WHERE region = 0 AND code = 'c3'");
      CompareRun.Summary second = new CompareRun(CompareConfig.of(task), false).run();

      // Then exactly the changed row failed, by its key
      assertThat(failed(results, second.tables().get(0), app))
          .containsExactly(KEYS.encode(List.of(0, "c3")));
    }
  }

  /**
   * Waits for every chunk result of the run (chunks × 3 partitions, each VERIFIED) and returns the
   * failed keys; no row may be missed or extra.
   */
  private static List<String> failed(
      ResultsReader results, CompareRun.TableDone table, VerifierApp app) {
    String runId = table.runId();
    long chunks = table.chunks();
    List<ChunkResult> seen = new ArrayList<>();
    await("results of run " + runId)
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              app.requireHealthy();
              seen.clear();
              for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
                seen.add(r.value());
              }
              return seen.stream()
                      .map(r -> r.getChunk() + "/" + r.getTablePartition())
                      .distinct()
                      .count()
                  == chunks * 3;
            });
    List<String> failed = new ArrayList<>();
    Set<String> counted = new java.util.HashSet<>();
    for (ChunkResult r : seen) {
      if (!counted.add(r.getChunk() + "/" + r.getTablePartition())) {
        continue;
      }
      assertThat(r.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(r.getMissedKeys()).isEmpty();
      assertThat(r.getExtraKeys()).isEmpty();
      failed.addAll(r.getFailedKeys());
    }
    return failed;
  }

  private static void sql(JdbcServer server, String database, String statement)
      throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private static long count(Connection c, String query) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
