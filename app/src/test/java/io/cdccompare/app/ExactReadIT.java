package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.schemas.avro.ChunkResult;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A chunk's read sees every change the stream puts before its OPEN (docs/design.md, "The read
 * position"), on real servers: a capture, a PostgreSQL and a MariaDB target verifier. In each test
 * one source transaction is frozen with its commit record in the WAL, before the chunk's OPEN note,
 * but not yet visible to new snapshots ({@link FrozenCommit}); the capture streams it and both
 * targets apply it. It is released once the command has either read past it (the CLOSE note is
 * written, or waits to commit) or is seen waiting for it. The verdicts must be what the stream
 * says: never failed, missed or extra for the frozen key, a repair never deletes its row, and never
 * re-sends an older row over it.
 *
 * <p>The four tests share one pipeline and run in order; each works on keys of its own.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExactReadIT {
  private static final int ROWS = ComparePipeline.ROWS;
  private static final String TASK = "exact";

  /** The advisory lock a test trigger waits for to hold an OPEN note before it commits. */
  private static final int HOLD_LOCK = 4242;

  @TempDir static Path dir;

  private static ComparePipeline p;
  private static CaptureFixture.Running capture;
  private static RunningVerifier pg;
  private static RunningVerifier maria;

  private final Cli cli = new Cli();

  @BeforeAll
  static void pipeline(EmbeddedEnvironment env) throws Exception {
    p = ComparePipeline.create(env, dir, TASK, Map.of("chunk", "500"));
    capture = p.source().start("public.items");
    pg = p.verifier("pg", true);
    maria = p.verifier("maria", false);
    p.source()
        .sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
    ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), ROWS);
    ComparePipeline.awaitRows(p.mariaServer(), p.mariaDb(), ROWS);
  }

  @AfterAll
  static void stop() throws Exception {
    try (AutoCloseable c = capture;
        AutoCloseable a = pg;
        AutoCloseable b = maria) {
      // closed in reverse order
    }
  }

  @Test
  @Order(1)
  void aFullChunkSeesAChangeCommittedBeforeItsOpenButNotYetVisible() throws Exception {
    // Given key 10 updated on the source by a transaction frozen before the compare's first OPEN
    int exit;
    try (FrozenCommit frozen =
        FrozenCommit.freeze(p.source(), "UPDATE items SET name = 'frozen' WHERE id = 10")) {
      awaitOnTargets(10, "frozen");

      // When a full compare runs, the freeze released once it read chunk 0 or waits to
      exit = whileFrozen(frozen, "compare", "run", "-c", p.taskFile().toString(), "--wait");
    }

    // Then key 10 is matched (or in flight) on both targets: no difference at all
    String run = ComparePipeline.fullRunId(p.taskFile(), TASK);
    List<ChunkResult> results = ComparePipeline.results(p.taskFile(), run);
    assertNoDifference(results, "10");
    assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.OK.code());
    assertThat(ComparePipeline.rowsCounted(results, "pg")).isEqualTo(ROWS);
    assertThat(ComparePipeline.rowsCounted(results, "maria")).isEqualTo(ROWS);
  }

  @Test
  @Order(2)
  void aKeyListChunkSeesAChangeCommittedBeforeItsOpenButNotYetVisible() throws Exception {
    // Given a full run that found key 20 different on pg
    String run = fullRunFinding("UPDATE items SET name = 'changed' WHERE id = 20");

    // and the source updating key 20 in a transaction frozen before the recheck's OPEN: every
    // target applies it, so pg no longer differs
    int exit;
    try (FrozenCommit frozen =
        FrozenCommit.freeze(p.source(), "UPDATE items SET name = 'fixed' WHERE id = 20")) {
      awaitOnTargets(20, "fixed");

      // When the differences are rechecked
      cli.clearOut();
      exit =
          whileFrozen(
              frozen,
              "compare",
              "recheck",
              "-c",
              p.taskFile().toString(),
              "--run",
              run,
              "--what",
              "differences",
              "--wait");
    }

    // Then key 20 is cleared on pg, not confirmed failed
    assertThat(cli.out()).contains("pg public.items: confirmed=0 cleared=1");
    assertNoDifference(ComparePipeline.results(p.taskFile(), run + ".recheck1"), "20");
    assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.OK.code());
  }

  @Test
  @Order(3)
  void aRepairKeepsAnExtraRowTheSourceInsertedBeforeItsOpenButNotYetVisible() throws Exception {
    // Given a full run that found key 5000 extra on pg
    String run = fullRunFinding("INSERT INTO items VALUES (5000, 'extra', 1)");

    // and the source inserting key 5000 in a transaction frozen before the repair's OPEN: every
    // target applies it
    int exit;
    try (FrozenCommit frozen =
        FrozenCommit.freeze(
            p.source(), "INSERT INTO items VALUES (5000, 'inserted on the source', 1)")) {
      awaitOnTargets(5000, "inserted on the source");

      // When pg is repaired, deleting its extra rows
      cli.clearOut();
      exit =
          whileFrozen(
              frozen,
              "compare",
              "repair",
              "-c",
              p.taskFile().toString(),
              "--run",
              run,
              "--target",
              "pg",
              "--delete-extra",
              "--wait");
    }

    // Then pg keeps the row the source holds, and the check finds nothing different
    assertThat(name(p.pgServer(), p.pgDb(), 5000)).isEqualTo("inserted on the source");
    assertThat(cli.out()).doesNotContain("still different:");
    assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.OK.code());
  }

  @Test
  @Order(4)
  void aRepairNeverReSendsAnOlderRowOverAChangeCommittedBeforeItsWindowButNotYetVisible()
      throws Exception {
    // Given a full run that found key 30 different on pg
    String run = fullRunFinding("UPDATE items SET name = 'changed' WHERE id = 30");

    // and the source updating key 30 in a transaction frozen before the re-send's window opens:
    // every target applies it, so pg holds the source's newest row again
    int exit;
    try (FrozenCommit frozen =
        FrozenCommit.freeze(p.source(), "UPDATE items SET name = 'newest' WHERE id = 30")) {
      awaitOnTargets(30, "newest");

      // When pg is repaired (re-sending key 30 through the capture)
      cli.clearOut();
      exit =
          whileFrozen(
              frozen,
              "compare",
              "repair",
              "-c",
              p.taskFile().toString(),
              "--run",
              run,
              "--target",
              "pg",
              "--wait");
    }

    // Then the re-sent row is the newest one: the check finds key 30 repaired on pg
    assertThat(cli.out()).contains("pg public.items: repaired=1 still_different=0");
    assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.OK.code());
    assertThat(name(p.pgServer(), p.pgDb(), 30)).isEqualTo("newest");
    // And no target was left with the older row: a full compare finds nothing different
    cli.clearOut();
    assertThat(cli.run("compare", "run", "-c", p.taskFile().toString(), "--wait"))
        .as(cli.out() + cli.err())
        .isEqualTo(ExitCode.OK.code());
    assertNoDifference(
        ComparePipeline.results(p.taskFile(), ComparePipeline.fullRunId(p.taskFile(), TASK)), "30");
  }

  @Test
  @Order(5)
  void aFullChunkSeesAChangeWhoseTransactionGotItsIdAfterTheOpensButCommittedFirst()
      throws Exception {
    // Given chunk 0's OPEN held between its insert and its commit (its transaction has its id)
    p.source()
        .sql(
            "CREATE OR REPLACE FUNCTION public.hold_open() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN PERFORM pg_advisory_xact_lock("
                + HOLD_LOCK
                + "); RETURN NULL; END $$",
            "CREATE TRIGGER hold_open AFTER INSERT OR UPDATE ON repi.validatetables FOR EACH ROW WHEN"
                + " (NEW.phase = 'OPEN' AND NEW.chunk = 0) EXECUTE FUNCTION public.hold_open()");
    int exit;
    List<FrozenCommit> frozen = new ArrayList<>();
    try (Connection holder = p.source().connect();
        Statement hold = holder.createStatement()) {
      hold.execute("SELECT pg_advisory_lock(" + HOLD_LOCK + ")");
      exit =
          whileFrozen(
              () -> {
                await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(50))
                    .until(ExactReadIT::openHeld);
                // and key 40 updated by a transaction that got its id after the OPEN's, whose
                // commit record comes first and which is frozen before any snapshot sees it: no
                // transaction with a higher id has ended when the OPEN commits, so a snapshot
                // taken after the OPEN does not list it as in progress
                frozen.add(
                    FrozenCommit.freeze(
                        p.source(), "UPDATE items SET name = 'later id' WHERE id = 40"));
                hold.execute("SELECT pg_advisory_unlock(" + HOLD_LOCK + ")");
                return frozen.get(0);
              },
              "compare",
              "run",
              "-c",
              p.taskFile().toString(),
              "--wait");
    } finally {
      for (FrozenCommit f : frozen) {
        f.close();
      }
      p.source()
          .sql(
              "DROP TRIGGER IF EXISTS hold_open ON repi.validatetables",
              "DROP FUNCTION IF EXISTS public.hold_open()");
    }

    // Then key 40 is matched (or in flight) on both targets: the stream puts it before the OPEN
    List<ChunkResult> results =
        ComparePipeline.results(p.taskFile(), ComparePipeline.fullRunId(p.taskFile(), TASK));
    assertNoDifference(results, "40");
    assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.OK.code());
    assertThat(name(p.pgServer(), p.pgDb(), 40)).isEqualTo("later id");
  }

  /** Whether a session waits for the advisory lock that holds chunk 0's OPEN. */
  private static boolean openHeld() throws SQLException {
    try (Connection c = p.source().connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    + " AND objid = "
                    + HOLD_LOCK)) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /** Makes {@code change} on pg only, and returns the id of a full run that found it. */
  private String fullRunFinding(String change) throws Exception {
    ComparePipeline.sql(p.pgServer(), p.pgDb(), change);
    assertThat(cli.run("compare", "run", "-c", p.taskFile().toString(), "--wait"))
        .as(cli.out() + cli.err())
        .isEqualTo(ExitCode.DIFFERENCES.code());
    return ComparePipeline.fullRunId(p.taskFile(), TASK);
  }

  /**
   * Runs a command while {@code frozen} holds its transaction, and releases it once the command
   * read past it (a CLOSE noted since the freeze, or one waiting in SyncRep to commit), is seen
   * waiting for it (its read, or a re-send's window waiting for a lock), or ended.
   */
  private int whileFrozen(FrozenCommit frozen, String... command) throws Exception {
    return whileFrozen(() -> frozen, command);
  }

  /**
   * Runs a command, calls {@code freeze} once it started, and releases the transaction it froze as
   * {@link #whileFrozen(FrozenCommit, String...)} does; the caller closes it.
   */
  private int whileFrozen(Callable<FrozenCommit> freeze, String... command) throws Exception {
    Logger log = (Logger) LoggerFactory.getLogger("io.cdccompare.producer.compare.ExactSnapshot");
    Level level = log.getLevel();
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    log.addAppender(events);
    log.setLevel(Level.DEBUG);
    try {
      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.run(command));
      FrozenCommit frozen = freeze.call();
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  exit.isDone()
                      || frozen.othersHeld()
                      || frozen.othersWaitForALock()
                      || closedSince(frozen.frozenAt())
                      || events.list.stream()
                          .anyMatch(e -> e.getFormattedMessage().contains("waiting for source")));
      assertThat(frozen.isFrozen()).as("the transaction is still frozen").isTrue();
      frozen.release();
      return exit.get(180, TimeUnit.SECONDS);
    } finally {
      log.detachAppender(events);
      log.setLevel(level);
    }
  }

  /** Whether a CLOSE note of the task was committed since the freeze. */
  private static boolean closedSince(String frozenAt) throws SQLException {
    try (Connection c = p.source().connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM repi.validatetables WHERE task = ? AND phase = 'CLOSE'"
                    + " AND noted_at > ?::timestamptz")) {
      s.setString(1, TASK);
      s.setString(2, frozenAt);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  private static void assertNoDifference(List<ChunkResult> results, String key) {
    assertThat(results).as("verdicts").isNotEmpty();
    assertThat(results.stream().map(ChunkResult::getTarget).distinct())
        .containsExactlyInAnyOrder("pg", "maria");
    for (ChunkResult r : results) {
      assertThat(r.getFailedKeys()).as("failed on %s", r.getTarget()).doesNotContain(key);
      assertThat(r.getMissedKeys()).as("missed on %s", r.getTarget()).doesNotContain(key);
      assertThat(r.getExtraKeys()).as("extra on %s", r.getTarget()).doesNotContain(key);
    }
  }

  private static void awaitOnTargets(int id, String name) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                name.equals(name(p.pgServer(), p.pgDb(), id))
                    && name.equals(name(p.mariaServer(), p.mariaDb(), id)));
  }

  private static String name(JdbcServer server, String database, int id) throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT name FROM items WHERE id = " + id)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
