package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare recheck} end to end on real servers: a capture, a PostgreSQL and a MariaDB target
 * verifier, a full run that finds differences on both, some of them fixed afterwards; the recheck
 * compares each difference again at the target that listed it, and only there.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class CompareRecheckIT {
  private static final int ROWS = ComparePipeline.ROWS;

  private final Cli cli = new Cli();

  @Test
  void aRecheckComparesEachDifferenceAgainAtTheTargetsThatListedIt(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a source table replicated to a PostgreSQL and a MariaDB target
    ComparePipeline p = ComparePipeline.create(env, dir, "recheck", Map.of("chunk", "500"));
    CaptureFixture f = p.source();
    JdbcServer pgServer = p.pgServer();
    JdbcServer mariaServer = p.mariaServer();
    String pgDb = p.pgDb();
    String mariaDb = p.mariaDb();
    Path taskFile = p.taskFile();

    try (CaptureFixture.Running capture = f.start("public.items");
        RunningVerifier pg = p.verifier("pg", true);
        RunningVerifier maria = p.verifier("maria", false)) {
      f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
      ComparePipeline.awaitRows(pgServer, pgDb, ROWS);
      ComparePipeline.awaitRows(mariaServer, mariaDb, ROWS);

      // and differences: on pg key 7 changed; on maria key 5 changed, 6 deleted, 5000 extra
      ComparePipeline.sql(pgServer, pgDb, "UPDATE items SET name = 'changed' WHERE id = 7");
      ComparePipeline.sql(
          mariaServer,
          mariaDb,
          "UPDATE items SET name = 'changed' WHERE id = 5",
          "DELETE FROM items WHERE id = 6",
          "INSERT INTO items VALUES (5000, 'extra', 1)");
      assertThat(
              cli.run(
                  "compare", "run", "-c", taskFile.toString(), "--wait", "--wait-timeout", "180"))
          .as(cli.err())
          .isEqualTo(ExitCode.DIFFERENCES.code());
      String fullRun = ComparePipeline.fullRunId(taskFile);

      // When maria's key 5 is fixed, the source gets maria's extra row, and the differences are
      // rechecked
      ComparePipeline.sql(mariaServer, mariaDb, "UPDATE items SET name = 'item 5' WHERE id = 5");
      f.sql("INSERT INTO items VALUES (5000, 'extra', 1)");
      ComparePipeline.awaitRows(pgServer, pgDb, ROWS + 1);
      int first =
          cli.run(
              "compare",
              "recheck",
              "-c",
              taskFile.toString(),
              "--what",
              "differences",
              "--wait",
              "--wait-timeout",
              "180");

      // Then each key is compared again at the targets that listed it: fixed keys are cleared,
      // the others confirmed in their class
      String text = cli.out();
      assertThat(first).as(text + cli.err()).isEqualTo(ExitCode.DIFFERENCES.code());
      assertThat(text)
          .contains("recheck run=" + fullRun + ".recheck1 chunks=1 keys=4 present=4 absent=0")
          .contains("maria public.items: confirmed=1 cleared=2 unsettled=0 unverified=0")
          .contains("  6 confirmed missed")
          .contains("pg public.items: confirmed=1 cleared=0 unsettled=0 unverified=0")
          .contains("  7 confirmed failed");
      List<ChunkResult> recheck1 = ComparePipeline.results(taskFile, fullRun + ".recheck1");
      assertThat(recheck1).allSatisfy(r -> assertThat(r.getTaskKind()).isEqualTo(TaskKind.RECHECK));
      assertThat(ComparePipeline.rowsCounted(recheck1, "maria"))
          .as("maria compares its 3 keys only")
          .isEqualTo(3);
      assertThat(ComparePipeline.rowsCounted(recheck1, "pg"))
          .as("pg compares key 7 only")
          .isEqualTo(1);

      // When pg's key 7 is fixed too and the differences are rechecked again
      ComparePipeline.sql(pgServer, pgDb, "UPDATE items SET name = 'item 7' WHERE id = 7");
      cli.clearOut();
      int second =
          cli.run(
              "compare",
              "recheck",
              "-c",
              taskFile.toString(),
              "--run",
              fullRun,
              "--what",
              "differences",
              "--wait");

      // Then it is the second attempt: 7 is cleared on pg, 6 still missed on maria
      assertThat(second).as(cli.out() + cli.err()).isEqualTo(ExitCode.DIFFERENCES.code());
      assertThat(cli.out())
          .contains("recheck run=" + fullRun + ".recheck2")
          .contains("pg public.items: confirmed=0 cleared=1")
          .contains("maria public.items: confirmed=1 cleared=2")
          .contains("  6 confirmed missed");

      // and the report still shows the full run; the run had no key in flight to recheck
      assertThat(ComparePipeline.fullRunId(taskFile)).isEqualTo(fullRun);
      cli.clearOut();
      assertThat(cli.run("compare", "recheck", "-c", taskFile.toString())).isZero();
      assertThat(cli.out()).contains("run " + fullRun + ": no in-flight key to recheck");
    }
  }

  @Test
  void aRecheckOfAnUnknownRunOrWithoutTargetsIsRefused(EmbeddedEnvironment env, @TempDir Path dir)
      throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql(ComparePipeline.TABLE_DDL);
    Map<String, String> task = new LinkedHashMap<>(f.task("refused", "public.items"));
    Path noTargets = ComparePipeline.write(dir.resolve("no-targets.properties"), task);
    task.put(CompareConfig.TARGETS, "pg");
    Path taskFile = ComparePipeline.write(dir.resolve("task.properties"), task);

    assertThat(cli.run("compare", "recheck", "-c", noTargets.toString()))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err()).contains(CompareConfig.TARGETS);
    assertThat(cli.run("compare", "recheck", "-c", taskFile.toString(), "--what", "some"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err()).contains("--what must be in-flight, differences or all");
    assertThat(cli.run("compare", "recheck", "-c", taskFile.toString(), "--run", "no-such-run"))
        .isNotZero();
    assertThat(cli.err()).contains("no-such-run");
  }

  @Test
  void aRunsInFlightKeysAreRecheckedUntilSettledAndAKeyThatKeepsChangingIsUnsettled(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a live load on the source, and one key updated every 2 ms all along
    ComparePipeline p =
        ComparePipeline.create(
            env, dir, "inflight", Map.of("chunk", "100", CompareConfig.RECHECK_ATTEMPTS, "2"));
    CaptureFixture f = p.source();
    try (CaptureFixture.Running capture = f.start("public.items");
        RunningVerifier pg = p.verifier("pg", true);
        RunningVerifier maria = p.verifier("maria", false)) {
      f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
      ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), ROWS);
      ComparePipeline.awaitRows(p.mariaServer(), p.mariaDb(), ROWS);
      int exit;
      try (LiveLoad load = new LiveLoad(f)) {
        // When the task runs with --wait (recheck.in.flight is on by default)
        exit =
            cli.run(
                "compare", "run", "-c", p.taskFile().toString(), "--wait", "--wait-timeout", "180");
        assertThat(load.updates()).as("the live load ran").isPositive();
      }

      // Then the run had keys in flight besides the hot one, every one of them was rechecked
      // and cleared, and the hot key ends unsettled: neither a difference nor a match
      String text = cli.out();
      String runId = ComparePipeline.fullRunId(p.taskFile(), "inflight");
      List<ChunkResult> run = ComparePipeline.results(p.taskFile(), runId);
      Set<String> inFlight = new TreeSet<>();
      run.forEach(r -> inFlight.addAll(r.getInFlightKeys()));
      assertThat(inFlight).as(text).contains("1").hasSizeGreaterThan(1);
      Set<String> failed = new TreeSet<>();
      run.forEach(r -> failed.addAll(r.getFailedKeys()));
      assertThat(exit)
          .as(() -> text + cli.err() + "\nfailed keys, rows now: " + p.rowsNow(failed))
          .isEqualTo(ExitCode.INCOMPLETE.code());
      assertThat(text)
          .contains("recheck run=" + runId + ".recheck1")
          .contains("recheck run=" + runId + ".recheck2")
          .doesNotContain(runId + ".recheck3")
          .contains("recheck of run " + runId + ":");
      for (String target : List.of("pg", "maria")) {
        assertThat(text)
            .containsPattern(
                target + " public.items: confirmed=0 cleared=[1-9][0-9]* unsettled=1 unverified=0");
      }
      assertThat(text.lines().filter(l -> l.equals("  1 unsettled"))).hasSize(2);
    }
  }

  /** Updates a random row every 5 ms and row 1 every 2 ms, each on its own connection. */
  private static final class LiveLoad implements AutoCloseable {
    private final ScheduledExecutorService threads = Executors.newScheduledThreadPool(2);
    private final AtomicLong updates = new AtomicLong();
    private final Connection random;
    private final Connection hot;

    LiveLoad(CaptureFixture f) throws SQLException {
      random = f.connect();
      hot = f.connect();
      String randomRow =
          "UPDATE items SET n = n + 1 WHERE id = 2 + floor(random() * " + (ROWS - 1) + ")::int";
      threads.scheduleAtFixedRate(() -> update(random, randomRow), 0, 5, TimeUnit.MILLISECONDS);
      threads.scheduleAtFixedRate(
          () -> update(hot, "UPDATE items SET n = n + 1 WHERE id = 1"),
          0,
          2,
          TimeUnit.MILLISECONDS);
    }

    private void update(Connection connection, String update) {
      try (Statement s = connection.createStatement()) {
        s.execute(update);
        updates.incrementAndGet();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    long updates() {
      return updates.get();
    }

    @Override
    public void close() throws Exception {
      threads.shutdown();
      assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      random.close();
      hot.close();
    }
  }
}
