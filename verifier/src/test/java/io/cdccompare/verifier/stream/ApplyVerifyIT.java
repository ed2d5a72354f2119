package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
  private static final KeyCodec KEYS =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void bothTargetsApplyTheStreamMatchEveryRowThenReportExactlyTheInjectedDifferences(
      EmbeddedEnvironment env) throws Exception {
    // Given the same table on the source and, empty, on a PostgreSQL and a MariaDB target
    CaptureFixture source = new CaptureFixture(env);
    source.sql(
        "CREATE TABLE orders (region int NOT NULL, code varchar(20) NOT NULL, qty int NOT NULL,"
            + " price numeric(12,2), note text, created timestamp(6), shipped boolean,"
            + " weight double precision, PRIMARY KEY (region, code))");
    TargetDb postgres = TargetDb.postgres(env, source.prefix);
    TargetDb mariadb = TargetDb.mariadb(env, source.prefix);
    String topic = TableTopics.topicName(source.prefix, TargetDb.ORDERS);
    // the PostgreSQL target applies in batches of 200 and at least every 500 ms; the MariaDB
    // target only when Streams commits (every 300 ms) or at a CLOSE marker
    VerifierSettings pgSettings =
        postgres.settings(env, source.prefix, 200, Duration.ofMillis(500));
    VerifierSettings mariaSettings =
        mariadb.settings(env, source.prefix, 1_000_000, Duration.ofHours(1));

    try (CaptureFixture.Running capture = source.start("public.orders");
        VerifierApp pgApp = VerifierApp.start(pgSettings, postgres.audit(pgSettings, topic));
        VerifierApp mariaApp =
            VerifierApp.start(mariaSettings, mariadb.audit(mariaSettings, topic));
        ResultsReader results = ResultsReader.of(env, pgSettings)) {
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
                Map<Integer, Long> end = RunOutcome.endOffsets(env, topic);
                assertThat(end.values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(records);
                for (TargetDb target : List.of(postgres, mariadb)) {
                  assertThat(target.checkpoints(topic))
                      .as("checkpoints of %s", target.name)
                      .isEqualTo(RunOutcome.lastOffsets(end));
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
      Map<String, RunOutcome> clean =
          RunOutcome.collect(results, first.tables().get(0).runId(), CHUNKS, pgApp, mariaApp);
      for (String target : List.of("pg", "maria")) {
        assertThat(clean.get(target))
            .as("first run on %s", target)
            .isEqualTo(new RunOutcome(ROWS, List.of(), List.of(), List.of(), 0));
      }

      // When differences are made directly on each target: a changed value in chunk 1, a deleted
      // row in chunk 3, an extra row inside chunk 4's key range
      List<Object[]> keys = source.rows("SELECT region, code FROM orders ORDER BY region, code");
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
      Map<String, RunOutcome> found =
          RunOutcome.collect(results, second.tables().get(0).runId(), CHUNKS, pgApp, mariaApp);
      RunOutcome expected =
          new RunOutcome(
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

  private static String key(Object[] key) {
    return KEYS.encode(List.of(key));
  }
}
