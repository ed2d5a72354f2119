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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A full compare at deep=100 looks at every target row of a table (docs/design.md, "Coverage"), on
 * real servers: a PostgreSQL source captured into 3-partition topics and a PostgreSQL and a MariaDB
 * target, each applied and verified by its own application. Rows written directly on the targets
 * with keys the source never had are reported extra wherever their key lies: below the first key,
 * between two chunks (also where both chunks share the first key column), above the last key, in an
 * empty source table and in one emptied between two runs.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class CoverageIT {
  private static final int ROWS = 3_000;
  private static final int CHUNK = 500;
  private static final KeyCodec ORDER_KEYS =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));
  private static final KeyCodec ID_KEYS = new KeyCodec(List.of(LogicalType.INTEGER));

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void extraTargetRowsAtEveryChunkBoundaryAreFoundOnBothTargetsUnderALiveLoad(
      EmbeddedEnvironment env) throws Exception {
    // Given 3 000 orders (5 regions of 600) on the source, copied through the stream to a
    // PostgreSQL and a MariaDB target: six chunks of 500, two of them ending inside a region
    CaptureFixture source = new CaptureFixture(env);
    source.sql(
        "CREATE TABLE orders (region int NOT NULL, code varchar(20) NOT NULL, qty int NOT NULL,"
            + " price numeric(12,2), note text, created timestamp(6), shipped boolean,"
            + " weight double precision, PRIMARY KEY (region, code))");
    TargetDb postgres = TargetDb.postgres(env, source.prefix);
    TargetDb mariadb = TargetDb.mariadb(env, source.prefix);
    String topic = TableTopics.topicName(source.prefix, TargetDb.ORDERS);

    try (CaptureFixture.Running capture = source.start("public.orders");
        Verifiers verifiers = Verifiers.start(env, source, topic, postgres, mariadb)) {
      source.sql(
          "INSERT INTO orders (region, code, qty, note) SELECT g % 5,"
              + " 'c' || lpad(g::text, 5, '0'), g, 'note ' || g FROM generate_series(1, "
              + ROWS
              + ") g");
      await("copy through the stream")
          .atMost(Duration.ofSeconds(120))
          .until(() -> postgres.count() == ROWS && mariadb.count() == ROWS);

      // And on both targets, rows with keys the source never had: below the first key, right
      // after the last key of every chunk (so before the next chunk's first key; the first two
      // boundaries lie inside region 0 and region 1), and above the last key
      List<Object[]> keys = source.rows("SELECT region, code FROM orders ORDER BY region, code");
      List<Object[]> extras = new ArrayList<>();
      extras.add(new Object[] {-1, "a"});
      for (int last = CHUNK - 1; last < ROWS; last += CHUNK) {
        extras.add(new Object[] {keys.get(last)[0], keys.get(last)[1] + "x"});
      }
      extras.add(new Object[] {99, "z"});
      assertThat(keys.get(CHUNK)[0]).as("chunk 1 starts in chunk 0's region").isEqualTo(0);
      assertThat(keys.get(2 * CHUNK)[0]).as("chunk 2 starts in chunk 1's region").isEqualTo(1);
      for (TargetDb target : List.of(postgres, mariadb)) {
        for (Object[] extra : extras) {
          target.execute(
              "INSERT INTO " + target.table + " (region, code, qty) VALUES (?, ?, 1)", extra);
        }
      }

      // When a full compare at deep=100 runs while a live load updates the orders and inserts
      // and deletes others after the last key (region 7: the table's open-ended last chunk)
      Map<String, String> task = source.task("full", "public.orders");
      task.put("chunk", Integer.toString(CHUNK));
      task.put("deep", "100");
      CompareRun.Summary run;
      AtomicLong transactions = new AtomicLong();
      long before;
      long after;
      try (LiveLoad load = new LiveLoad(source, transactions)) {
        await("live load").atMost(Duration.ofSeconds(30)).until(() -> transactions.get() >= 10);
        before = transactions.get();
        run = new CompareRun(CompareConfig.of(task), false).run();
        after = transactions.get();
      }

      // Then the load really ran during the compare
      assertThat(after).as("transactions during the compare").isGreaterThan(before);
      // And each target reports exactly the rows written on it, as extra, and nothing else
      long chunks = run.tables().get(0).chunks();
      assertThat(chunks).isGreaterThanOrEqualTo(ROWS / CHUNK);
      Map<String, RunOutcome> found = verifiers.collect(run.tables().get(0).runId(), chunks);
      List<String> expectedExtra = extras.stream().map(k -> ORDER_KEYS.encode(List.of(k))).toList();
      for (String target : List.of("pg", "maria")) {
        RunOutcome outcome = found.get(target);
        assertThat(outcome.extra())
            .as("extra on %s", target)
            .containsExactlyInAnyOrderElementsOf(expectedExtra);
        assertThat(outcome.failed()).as("failed on %s", target).isEmpty();
        assertThat(outcome.missed()).as("missed on %s", target).isEmpty();
        assertThat(outcome.matched() + outcome.inFlight())
            .as("matched and in flight on %s", target)
            .isGreaterThanOrEqualTo(run.tables().get(0).comparedRows());
      }
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void anEmptySourceTableAndATableEmptiedBetweenRunsReportTheirTargetRowsExtra(
      EmbeddedEnvironment env) throws Exception {
    // Given two tables on the source, "vacant" without rows and "emptied" with 50, copied to both
    // targets, where "vacant" also holds three rows written directly
    CaptureFixture source = new CaptureFixture(env);
    String columns = "id int NOT NULL, v varchar(20), PRIMARY KEY (id)";
    source.sql("CREATE TABLE vacant (" + columns + ")", "CREATE TABLE emptied (" + columns + ")");
    TargetDb postgres = TargetDb.postgres(env, source.prefix, false);
    TargetDb mariadb = TargetDb.mariadb(env, source.prefix, false);
    Map<TargetDb, String[]> tables = new java.util.LinkedHashMap<>();
    for (TargetDb target : List.of(postgres, mariadb)) {
      tables.put(
          target,
          new String[] {target.create("vacant", columns), target.create("emptied", columns)});
    }
    String topic =
        TableTopics.topicName(
            source.prefix, new io.cdccompare.core.table.TableName("public", "emptied"));
    try (CaptureFixture.Running capture = source.start("public.vacant, public.emptied");
        Verifiers verifiers = Verifiers.start(env, source, topic, postgres, mariadb)) {
      source.sql("INSERT INTO emptied SELECT g, 'v' || g FROM generate_series(1, 50) g");
      await("copy through the stream")
          .atMost(Duration.ofSeconds(120))
          .until(
              () ->
                  postgres.count(tables.get(postgres)[1]) == 50
                      && mariadb.count(tables.get(mariadb)[1]) == 50);
      for (TargetDb target : List.of(postgres, mariadb)) {
        for (int id : new int[] {-3, 1, 500}) {
          target.execute(
              "INSERT INTO " + tables.get(target)[0] + " (id, v) VALUES (?, 'stray')",
              new Object[] {id});
        }
      }

      // When both tables are compared at deep=100
      Map<String, RunOutcome> vacant = compareOne(source, verifiers, "vacant");
      Map<String, RunOutcome> full = compareOne(source, verifiers, "emptied");

      // Then the empty table's target rows are all extra, the full table matched every row
      for (String target : List.of("pg", "maria")) {
        assertThat(vacant.get(target).sorted())
            .as("vacant on %s", target)
            .isEqualTo(new RunOutcome(0, List.of(), List.of(), ids(-3, 1, 500), 0).sorted());
        assertThat(full.get(target))
            .as("emptied, first run, on %s", target)
            .isEqualTo(new RunOutcome(50, List.of(), List.of(), List.of(), 0));
      }

      // When every row of "emptied" is deleted on the source (and so on the targets), two rows
      // are written directly on the targets, and the table is compared again
      source.sql("DELETE FROM emptied");
      await("deletes applied")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  postgres.count(tables.get(postgres)[1]) == 0
                      && mariadb.count(tables.get(mariadb)[1]) == 0);
      for (TargetDb target : List.of(postgres, mariadb)) {
        for (int id : new int[] {7, 70}) {
          target.execute(
              "INSERT INTO " + tables.get(target)[1] + " (id, v) VALUES (?, 'stray')",
              new Object[] {id});
        }
      }
      Map<String, RunOutcome> emptied = compareOne(source, verifiers, "emptied");

      // Then those two rows are extra on both targets
      for (String target : List.of("pg", "maria")) {
        assertThat(emptied.get(target).sorted())
            .as("emptied, second run, on %s", target)
            .isEqualTo(new RunOutcome(0, List.of(), List.of(), ids(7, 70), 0).sorted());
      }
    }
  }

  /** Runs a deep=100 task over {@code public.<table>} and waits for both targets' results. */
  private static Map<String, RunOutcome> compareOne(
      CaptureFixture source, Verifiers verifiers, String table) throws Exception {
    Map<String, String> task = source.task(table, "public." + table);
    task.put("deep", "100");
    CompareRun.Summary run = new CompareRun(CompareConfig.of(task), false).run();
    assertThat(run.tables().get(0).chunks()).isEqualTo(1);
    return verifiers.collect(run.tables().get(0).runId(), 1);
  }

  /**
   * The verifiers of both targets, applying in batches of 500 or every 200 ms, and their results.
   */
  private record Verifiers(VerifierApp pg, VerifierApp maria, ResultsReader results)
      implements AutoCloseable {
    static Verifiers start(
        EmbeddedEnvironment env,
        CaptureFixture source,
        String auditedTopic,
        TargetDb postgres,
        TargetDb mariadb)
        throws Exception {
      VerifierSettings pgSettings =
          postgres.settings(env, source.prefix, 500, Duration.ofMillis(200));
      VerifierSettings mariaSettings =
          mariadb.settings(env, source.prefix, 500, Duration.ofMillis(200));
      VerifierApp pg = VerifierApp.start(pgSettings, postgres.audit(pgSettings, auditedTopic));
      try {
        VerifierApp maria =
            VerifierApp.start(mariaSettings, mariadb.audit(mariaSettings, auditedTopic));
        return new Verifiers(pg, maria, ResultsReader.of(env, pgSettings));
      } catch (Exception | Error e) {
        pg.close();
        throw e;
      }
    }

    Map<String, RunOutcome> collect(String runId, long chunks) {
      return RunOutcome.collect(results, runId, chunks, pg, maria);
    }

    @Override
    public void close() throws Exception {
      try (VerifierApp first = pg;
          VerifierApp second = maria;
          ResultsReader reader = results) {
        // closed in reverse order
      }
    }
  }

  private static List<String> ids(int... ids) {
    List<String> keys = new ArrayList<>();
    for (int id : ids) {
      keys.add(ID_KEYS.encode(List.of(id)));
    }
    return keys;
  }

  /**
   * About 20 transactions a second on the source until closed: each updates a random order of the
   * first 3 000 and inserts an order in region 7; every third also deletes a region 7 order.
   */
  private static final class LiveLoad implements AutoCloseable {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Connection connection;

    LiveLoad(CaptureFixture source, AtomicLong transactions) throws Exception {
      connection = source.connect();
      PreparedStatement update =
          connection.prepareStatement(
              "UPDATE orders SET qty = qty + 1 WHERE region = ? AND code = ?");
      PreparedStatement insert =
          connection.prepareStatement("INSERT INTO orders (region, code, qty) VALUES (7, ?, 1)");
      PreparedStatement delete =
          connection.prepareStatement("DELETE FROM orders WHERE region = 7 AND code = ?");
      connection.setAutoCommit(false);
      thread.scheduleAtFixedRate(
          () -> {
            try {
              long n = transactions.get();
              int g = ThreadLocalRandom.current().nextInt(1, ROWS + 1);
              update.setInt(1, g % 5);
              update.setString(2, String.format("c%05d", g));
              update.executeUpdate();
              insert.setString(1, "live" + n);
              insert.executeUpdate();
              if (n % 3 == 2) {
                delete.setString(1, "live" + (n - 2));
                delete.executeUpdate();
              }
              connection.commit();
              transactions.incrementAndGet();
            } catch (Exception e) {
              failure.compareAndSet(null, e);
              throw new IllegalStateException(e);
            }
          },
          0,
          50,
          TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws Exception {
      thread.shutdown();
      assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      connection.close();
      if (failure.get() != null) {
        throw failure.get();
      }
    }
  }
}
