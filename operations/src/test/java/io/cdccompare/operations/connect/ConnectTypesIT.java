package io.cdccompare.operations.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.explain.Explainer;
import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What Debezium's JDBC sink writes, type by type, on a PostgreSQL and a MariaDB target, from a
 * stock Debezium connector with Avro through the registry: decimals (a negative zero and 38
 * digits), doubles, reals, booleans, dates, times, timestamps (an hour Europe's zones skip),
 * time-zoned timestamps into a MariaDB {@code TIMESTAMP} and {@code DATETIME}, bytes (empty too),
 * text (trailing blanks and tabs, accents, emoji), UUIDs (into a MariaDB {@code CHAR(36)}), JSON,
 * and NULL in every column. Every row compares in sync; one value changed in each column on the
 * targets fails exactly its row, and {@code report explain} names the column.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB,
  Component.CONNECT
})
class ConnectTypesIT {
  /** The table on the source, and on the PostgreSQL target. */
  private static final String POSTGRES_DDL =
      "CREATE TABLE items (id int PRIMARY KEY, amount numeric(12,4), ratio double precision,"
          + " small real, flag boolean, born date, alarm time(6), seen timestamp(6),"
          + " at timestamptz(6), at2 timestamptz(6), data bytea, note text, ref uuid, doc jsonb,"
          + " big numeric(38,10))";

  private static final StockPipeline.Table TYPES =
      new StockPipeline.Table(
          POSTGRES_DDL,
          POSTGRES_DDL,
          "CREATE TABLE items (id int PRIMARY KEY, amount decimal(12,4), ratio double,"
              + " small float, flag boolean, born date, alarm time(6), seen datetime(6),"
              + " at timestamp(6) NULL, at2 datetime(6), data longblob, note text, ref char(36),"
              + " doc json, big decimal(38,10))",
          List.of(
              "INSERT INTO items SELECT g, (g * 1.2345 - 100)::numeric(12,4), g / 7.0, (g / 3.0)::real,"
                  + " g % 2 = 0, date '2024-01-01' + g, time '13:45:30.123456' + g * interval '1 s',"
                  + " timestamp '2024-03-31 01:30:00.123456' + g * interval '1 minute',"
                  + " timestamptz '2024-10-27 00:30:00.5+00' + g * interval '1 minute',"
                  + " timestamptz '2024-10-27 00:30:00.5+00' + g * interval '1 minute',"
                  + " decode(lpad(to_hex(g), 8, '0'), 'hex'), 'note é ' || g, md5(g::text)::uuid,"
                  + " jsonb_build_object('g', g, 'x', 1.50), g * 12345678901.0123456789"
                  + " FROM generate_series(1, 300) g",
              "INSERT INTO items (id) VALUES (1001)",
              "INSERT INTO items VALUES (1002, -0.0000, 2e23, 0.1, false, '1000-01-01', '23:59:59.999999',"
                  + " '9999-12-31 23:59:59.999999', '1970-01-01 00:00:01+00', '2038-01-19 03:14:07.999999+00',"
                  + " '', 'ab  \t', '0E3F1A2B-4C5D-4E6F-8A9B-0C1D2E3F4A5B', '{\"b\": [1e2], \"a\": null}',"
                  + " -9999999999999999999999999999.9999999999)",
              "INSERT INTO items (id, note, ratio, seen) VALUES (1003, 'emoji 😀 and ✓', 1e-5,"
                  + " '2024-03-31 02:30:00')"),
          303);

  /** Per column, the key whose value is changed on the targets, and how on each target kind. */
  private record Change(String column, String key, String pg, String maria) {}

  private static final List<Change> CHANGES =
      List.of(
          new Change("amount", "11", "amount + 1", "amount + 1"),
          new Change("ratio", "12", "ratio * 2", "ratio * 2"),
          new Change("small", "13", "small + 1", "small + 1"),
          new Change("flag", "14", "NOT flag", "NOT flag"),
          new Change("born", "15", "'2000-01-01'", "'2000-01-01'"),
          new Change("alarm", "16", "'01:02:03'", "'01:02:03'"),
          new Change("seen", "17", "'2000-01-01 00:00:00'", "'2000-01-01 00:00:00'"),
          new Change("at", "18", "'2001-01-01 00:00:00+00'", "'2001-01-01 00:00:00'"),
          new Change("at2", "19", "'2001-01-01 00:00:00+00'", "'2001-01-01 00:00:00'"),
          new Change("data", "20", "decode('00ff', 'hex')", "UNHEX('00FF')"),
          new Change("note", "21", "'changed'", "'changed'"),
          new Change(
              "ref",
              "22",
              "'00000000-0000-0000-0000-000000000001'",
              "'00000000-0000-0000-0000-000000000001'"),
          new Change("doc", "23", "'{\"changed\": true}'", "'{\"changed\": true}'"),
          new Change("big", "24", "1", "1"));

  @Test
  void everyTypeTheSinksWriteComparesInSyncAndAChangedValueIsNamedByItsColumn(
      EmbeddedEnvironment env) throws Exception {
    // Given both targets written by Debezium's JDBC sink from Avro, every type of the table
    try (StockPipeline p = new StockPipeline(env, "ctypes", "avro", 60_000, TYPES)) {
      p.startVerifiers();

      // When a full compare runs
      Map<String, List<ChunkResult>> inSync = p.results(p.compare(), StockPipeline.TARGETS);

      // Then every row matched on both: the sinks wrote each value as the compare reads it
      for (String target : StockPipeline.TARGETS) {
        assertThat(inSync.get(target))
            .as(target)
            .allSatisfy(
                r -> {
                  assertThat(r.getState()).isEqualTo(ChunkState.VERIFIED);
                  assertThat(r.getFailedKeys()).isEmpty();
                  assertThat(r.getMissedKeys()).isEmpty();
                  assertThat(r.getExtraKeys()).isEmpty();
                  assertThat(r.getInFlightKeys()).isEmpty();
                });
        assertThat(inSync.get(target).stream().mapToLong(r -> r.getCounts().getMatched()).sum())
            .as(target)
            .isEqualTo(TYPES.rows());
      }

      // When one value of each column is changed on each target, a row per column, and the
      // compare runs again
      for (String target : StockPipeline.TARGETS) {
        try (Connection c = p.server(target).connect(p.database(target));
            Statement s = c.createStatement()) {
          for (Change change : CHANGES) {
            s.execute(
                "UPDATE items SET "
                    + change.column()
                    + " = "
                    + (target.equals("pg") ? change.pg() : change.maria())
                    + " WHERE id = "
                    + change.key());
          }
        }
      }
      CompareRun.Summary changed = p.compare();
      Map<String, List<ChunkResult>> results = p.results(changed, StockPipeline.TARGETS);

      // Then exactly those rows failed on each target, and each one's explanation names its column
      String runId = changed.tables().get(0).runId();
      Duration timeout = Duration.ofSeconds(30);
      try (Explainer explainer =
          new Explainer(p.targets, p.targets.reportReader(timeout), timeout)) {
        for (String target : StockPipeline.TARGETS) {
          assertThat(results.get(target).stream().flatMap(r -> r.getFailedKeys().stream()))
              .as(target)
              .containsExactlyInAnyOrderElementsOf(CHANGES.stream().map(Change::key).toList());
          assertThat(results.get(target))
              .allSatisfy(
                  r -> {
                    assertThat(r.getMissedKeys()).isEmpty();
                    assertThat(r.getExtraKeys()).isEmpty();
                  });
          for (Change change : CHANGES) {
            RowExplanation explained =
                explainer.explain(
                    new Explainer.Request(
                        target, "public.items", change.key(), Optional.of(runId)));
            assertThat(explained.runOutcome()).isEqualTo("failed");
            assertThat(explained.differingColumns())
                .as("%s key %s", target, change.key())
                .containsExactly(change.column());
          }
        }
      }
    }
  }
}
