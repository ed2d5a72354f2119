package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.testsupport.SourceFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One source transaction frozen between its commit record and its visibility (docs/faults.md, "A
 * change committed before the OPEN note, not yet visible"): with {@code synchronous_standby_names}
 * naming a standby that does not exist, a commit with {@code synchronous_commit = on} writes and
 * flushes its commit record, then waits in {@code SyncRep} before it leaves the process array.
 * Logical decoding streams it; new snapshots do not see it until {@link #release()}. Every other
 * session of the test and of the product commits with {@code synchronous_commit} local or off while
 * frozen and is not held.
 *
 * <p>The setting is server-wide: {@link #close()} always resets it, and the statement's session
 * ends.
 */
final class FrozenCommit implements AutoCloseable {
  private static final String STANDBY = "cdc_compare_no_such_standby";

  private final SourceFixture source;
  private final Connection probe;
  private final Connection frozen;
  private CompletableFuture<Void> probeCommit;
  private final CompletableFuture<Void> commit;
  private final int pid;
  private final int probePid;
  private final String frozenAt;

  private FrozenCommit(SourceFixture source, String statement) throws Exception {
    this.source = source;
    source.sql(
        "CREATE TABLE IF NOT EXISTS freeze_probe (n int)",
        "ALTER SYSTEM SET synchronous_commit = local",
        "ALTER SYSTEM SET synchronous_standby_names = '" + STANDBY + "'",
        "SELECT pg_reload_conf()");
    probe = source.connect();
    frozen = source.connect();
    // The server applies the setting a moment after the reload: a probe commit held in SyncRep
    // says it is in force before the statement runs (a probe that committed before is repeated)
    probePid = pid(probe);
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              if (probeCommit == null || probeCommit.isDone()) {
                probeCommit = runHeld(probe, "INSERT INTO freeze_probe VALUES (1)");
              }
              return "SyncRep".equals(waitEvent(probePid));
            });
    pid = pid(frozen);
    frozenAt = now();
    commit = runHeld(frozen, statement);
    awaitSyncRep(pid);
  }

  /**
   * Runs {@code statement} on the source in a session of its own, and returns once its commit is in
   * the WAL and held in {@code SyncRep}.
   */
  static FrozenCommit freeze(SourceFixture source, String statement) throws Exception {
    return new FrozenCommit(source, statement);
  }

  /** When the statement's transaction was frozen, as the source's {@code now()} text. */
  String frozenAt() {
    return frozenAt;
  }

  /** Whether a session other than the frozen ones waits in {@code SyncRep}. */
  boolean othersHeld() throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
                    + " AND pid NOT IN ("
                    + pid
                    + ", "
                    + probePid
                    + ")")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /** Whether a session waits for a lock (a re-send's window waits for the frozen writer). */
  boolean othersWaitForALock() throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_locks WHERE NOT granted")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /** Whether the statement's transaction is still frozen. */
  boolean isFrozen() {
    return !commit.isDone();
  }

  /** Lets the frozen commits finish, and waits until they did. */
  void release() throws Exception {
    source.sql(
        "ALTER SYSTEM RESET synchronous_standby_names",
        "ALTER SYSTEM RESET synchronous_commit",
        "SELECT pg_reload_conf()");
    commit.get(60, TimeUnit.SECONDS);
    probeCommit.get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    try {
      release();
    } finally {
      frozen.close();
      probe.close();
    }
  }

  private static CompletableFuture<Void> runHeld(Connection c, String statement) {
    return CompletableFuture.runAsync(
        () -> {
          try (Statement s = c.createStatement()) {
            s.execute("SET synchronous_commit = on");
            s.execute(statement);
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private void awaitSyncRep(int backend) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () ->
                assertThat(waitEvent(backend))
                    .as("wait event of pid %d", backend)
                    .isEqualTo("SyncRep"));
  }

  private String waitEvent(int backend) throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT wait_event FROM pg_stat_activity WHERE pid = " + backend)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private String now() throws SQLException {
    return source.rows("SELECT now()::text").get(0)[0].toString();
  }

  private static int pid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
