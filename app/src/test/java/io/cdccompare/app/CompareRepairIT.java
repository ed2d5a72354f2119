package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare repair} end to end on real servers (a capture, a PostgreSQL target {@code pg} and
 * a MariaDB target {@code maria}), under a live load on the source all along: differences injected
 * on maria are re-sent through the stream and proved fixed, pg stays in sync, and the keys the load
 * keeps updating while they are repaired end equal to the source (no older row overwrites a newer
 * change); and before the repair, on the same pipeline, every kind of bad input is refused before
 * anything changes (one pipeline for both: a second would cost a minute of the test run).
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class CompareRepairIT {
  private static final int ROWS = ComparePipeline.ROWS;

  /** Keys the differences are injected on, which the background load leaves alone. */
  private static final String SPECIAL = "id NOT IN (5, 6, 7, 8)";

  private final Cli cli = new Cli();

  @Test
  void aRepairReSendsTheTargetsDifferencesThroughTheStreamAndProvesThemFixed(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    ComparePipeline p = ComparePipeline.create(env, dir, "repair", Map.of("chunk", "500"));
    CaptureFixture f = p.source();
    JdbcServer maria = p.mariaServer();
    String task = p.taskFile().toString();
    try (CaptureFixture.Running capture = f.start("public.items");
        RunningVerifier pgVerifier = p.verifier("pg", true);
        RunningVerifier mariaVerifier = p.verifier("maria", false)) {
      f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
      ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), ROWS);
      ComparePipeline.awaitRows(maria, p.mariaDb(), ROWS);
      try (Load load = new Load(f, "UPDATE items SET n = n + 1 WHERE " + SPECIAL + " AND id = ")) {
        // Given differences on maria only: 5 and 7 changed, 6 and 8 deleted, 5000 and 5001 extra
        ComparePipeline.sql(
            maria,
            p.mariaDb(),
            "UPDATE items SET name = 'changed' WHERE id IN (5, 7)",
            "DELETE FROM items WHERE id IN (6, 8)",
            "INSERT INTO items VALUES (5000, 'extra', 1), (5001, 'extra', 1)");
        assertThat(cli.run("compare", "run", "-c", task, "--wait", "--wait-timeout", "180"))
            .as(cli.out() + cli.err())
            .isEqualTo(ExitCode.DIFFERENCES.code());
        String run = ComparePipeline.fullRunId(p.taskFile(), "repair");

        // When the source inserts 5001 after the run, and a dry run asks what a repair would do
        f.sql("INSERT INTO items VALUES (5001, 'new on the source', 1)");
        cli.clearOut();
        int dry =
            cli.run(
                "compare",
                "repair",
                "-c",
                task,
                "--target",
                "maria",
                "--delete-extra",
                "--dry-run");

        // Then it says, per key, re-send for the differing and missing rows, delete for the extra
        // row the source lacks, compare for the one the source now holds; and changes nothing
        assertThat(dry).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out())
            .contains("public.items 5 failed: re-send")
            .contains("public.items 6 missed: re-send")
            .contains("public.items 5000 extra: delete")
            .contains("public.items 5001 extra: compare");
        assertThat(mariaRow(maria, p.mariaDb(), 5)).isEqualTo("changed");
        assertThat(mariaRow(maria, p.mariaDb(), 5000)).isEqualTo("extra");

        // And a repair whose input is wrong is refused, naming what is wrong, before anything
        // changes
        assertRefusedBeforeAnythingChanges(p, run);

        // When the repair runs while the load keeps updating two of the repaired keys
        int repaired;
        try (Load hot = new Load(f, "UPDATE items SET n = n + 1 WHERE id = ", 5, 6)) {
          cli.clearOut();
          repaired =
              cli.run(
                  "compare",
                  "repair",
                  "-c",
                  task,
                  "--target",
                  "maria",
                  "--delete-extra",
                  "--wait",
                  "--wait-timeout",
                  "180");
          assertThat(hot.updates()).as("the repaired keys were updated meanwhile").isPositive();
        }

        // Then every difference is repaired on maria: nothing is still different (keys the load
        // touched while checked may stay in flight: exit 5), the extra row the source lacks is
        // deleted, the one it inserted meanwhile survives
        String text = cli.out();
        assertThat(repaired)
            .as(text + cli.err())
            .isIn(ExitCode.OK.code(), ExitCode.INCOMPLETE.code());
        assertThat(text)
            .contains("repair run=" + run + ".repair1 target=maria re-sent rows=")
            .contains("repair of run " + run + " on target maria (run " + run + ".repair1):")
            .containsPattern("maria public.items: repaired=[4-6] still_different=0")
            .contains("  missed: ")
            .doesNotContain("still different:");
        assertThat(mariaRow(maria, p.mariaDb(), 7)).isEqualTo("item 7");
        assertThat(mariaRow(maria, p.mariaDb(), 8)).isEqualTo("item 8");
        assertThat(mariaRow(maria, p.mariaDb(), 5000)).isNull();
        assertThat(mariaRow(maria, p.mariaDb(), 5001)).isEqualTo("new on the source");
        List<ChunkResult> check = ComparePipeline.results(p.taskFile(), run + ".repair1");
        assertThat(check).allSatisfy(r -> assertThat(r.getTaskKind()).isEqualTo(TaskKind.REPAIR));
        assertThat(ComparePipeline.rowsCounted(check, "pg")).as("pg compares no key").isZero();
        assertThat(ComparePipeline.rowsCounted(check, "maria"))
            .as("5, 6, 7, 8 and 5001 are rows on both sides; 5000 is on neither now: no row")
            .isEqualTo(5);
      }

      // And once the load stops, a full run finds both targets equal to the source: no repaired
      // key holds an older value than the source's, pg was never disturbed
      cli.clearOut();
      assertThat(cli.run("compare", "run", "-c", task, "--wait", "--wait-timeout", "180"))
          .as(cli.out() + cli.err())
          .isEqualTo(ExitCode.OK.code());
      assertThat(table(f.connect())).isEqualTo(table(maria.connect(p.mariaDb())));
    }
  }

  /**
   * Bad input, each refused with exit 2 (or 1) and a line naming it, before anything is sent: an
   * unknown target, table or run, a target without differences, a verifier that is not running, a
   * task another process holds. Run on the pipeline of task "repair" after its full run {@code run}
   * found differences on maria only.
   */
  private void assertRefusedBeforeAnythingChanges(ComparePipeline p, String run) throws Exception {
    String task = p.taskFile().toString();
    // An unknown target, table or run, or a target without differences: exit 2, named
    assertThat(cli.run("compare", "repair", "-c", task, "--target", "nope"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err()).contains("--target nope is not one of the targets of task repair");
    assertThat(cli.run("compare", "repair", "-c", task, "--target", "maria", "--table", "public.x"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err()).contains("--table public.x is not one of the tables of task repair");
    assertThat(cli.run("compare", "repair", "-c", task, "--target", "maria", "--run", "r-none"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err()).contains("run r-none of task repair has no verdict");
    assertThat(cli.run("compare", "repair", "-c", task, "--target", "pg"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(cli.err())
        .contains("run " + run + " has no failed or missed key on target pg: nothing to repair");

    // A verifier that is not running: exit 1 naming its group, nothing sent
    assertThat(
            cli.run(
                "compare",
                "repair",
                "-c",
                task,
                "--target",
                "maria",
                "--verifier-group",
                "cdc-compare-verify-stopped"))
        .isEqualTo(ExitCode.FAILURE.code());
    assertThat(cli.err())
        .contains("the verifier of target maria is not running")
        .contains("cdc-compare-verify-stopped");

    // A repair while another process holds the task: refused, naming that process
    try (Connection other = p.source().connect();
        Statement s = other.createStatement()) {
      s.execute("SET application_name = 'the-first-repair'");
      s.execute("SELECT pg_advisory_lock(hashtextextended('cdc-compare task repair', 0))");
      assertThat(cli.run("compare", "repair", "-c", task, "--target", "maria"))
          .isEqualTo(ExitCode.FAILURE.code());
      assertThat(cli.err())
          .contains("task repair is already running in another process")
          .contains("the-first-repair");
    }
    assertThat(ComparePipeline.results(p.taskFile(), run + ".repair1")).isEmpty();
    assertThat(mariaRow(p.mariaServer(), p.mariaDb(), 5)).isEqualTo("changed");
  }

  private static String mariaRow(JdbcServer server, String database, int id) throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT name FROM items WHERE id = " + id)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** Every row of {@code items} by key, read on (and closing) {@code connection}. */
  private static Map<Integer, String> table(Connection connection) throws SQLException {
    Map<Integer, String> rows = new TreeMap<>();
    try (connection;
        Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, n FROM items")) {
      while (rs.next()) {
        rows.put(rs.getInt(1), rs.getString(2) + "|" + rs.getInt(3));
      }
    }
    return rows;
  }

  /**
   * Runs {@code update} followed by a key every 5 ms on a connection of its own: a random key of
   * the table, or one of {@code keys} in turn when given.
   */
  private static final class Load implements AutoCloseable {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong updates = new AtomicLong();
    private final Connection connection;

    Load(CaptureFixture f, String update, int... keys) throws SQLException {
      connection = f.connect();
      AtomicLong turn = new AtomicLong();
      thread.scheduleAtFixedRate(
          () -> {
            long n = turn.getAndIncrement();
            int key =
                keys.length == 0 ? 1 + (int) (Math.random() * ROWS) : keys[(int) (n % keys.length)];
            try (Statement s = connection.createStatement()) {
              s.execute(update + key);
              updates.incrementAndGet();
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          },
          0,
          5,
          TimeUnit.MILLISECONDS);
    }

    long updates() {
      return updates.get();
    }

    @Override
    public void close() throws Exception {
      thread.shutdown();
      assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      connection.close();
    }
  }
}
