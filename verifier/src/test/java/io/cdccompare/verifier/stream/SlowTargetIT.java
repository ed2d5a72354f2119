package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's slow target and a target restarted inside a verify (docs/faults.md), on real servers:
 * a session on the PostgreSQL target holds a table lock while a CLOSE marker is verified (a lock on
 * rows does not block PostgreSQL's reads, a table lock does). The verify's statement is cancelled
 * by {@code statement.timeout.ms} and retried for {@code retry.timeout.ms}; past it the chunk is
 * UNVERIFIABLE with an alert, never a difference, and the chunks after it are verified; a lock
 * released in time, or a target restart that ends it, gives the right verdict late. On a MariaDB
 * target a row lock makes an apply wait until its lock wait timeout, and the apply is retried. A
 * table of 300 rows in one partition, compared in 3 chunks of 100. Its own environment: it restarts
 * the target, which the shared one never does.
 */
class SlowTargetIT {
  private static final TableName ITEMS = new TableName("public", "items");
  private static final String DDL = "CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)";
  private static final int ROWS = 300;
  private static final int CHUNKS = 3;
  private static EmbeddedEnvironment env;

  @BeforeAll
  static void start() {
    env =
        EmbeddedEnvironment.start(
            EnumSet.of(
                Component.KAFKA,
                Component.REGISTRY,
                Component.SOURCE_POSTGRES,
                Component.TARGET_POSTGRES,
                Component.MARIADB));
  }

  @AfterAll
  static void stop() {
    env.close();
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void aLockHeldBeyondTheRetryTimeoutMakesTheChunkUnverifiableNamingItAndLaterChunksAreVerified()
      throws Exception {
    // Given 300 rows applied to a target whose statements time out after 1 s, retried for 5 s
    Pipeline p =
        new Pipeline(
            "lockedlong", env.targetPostgres(), Duration.ofSeconds(1), Duration.ofSeconds(5));
    try (CaptureFixture.Running capture = p.startCapture();
        VerifierApp app = p.startVerifier();
        ResultsReader results = ResultsReader.of(env, p.settings);
        Connection locker = p.target.connect(p.database);
        Connection observer = p.target.connect(p.database)) {
      p.insertAndAwaitApplied(app);

      // When another session locks the target table and a full compare runs
      lock(locker);
      String runId = p.compare();

      // Then the verify of chunk 0 really waits for the lock (the fault bit)
      awaitBlockedVerify(observer, p, Instant.EPOCH);
      // And once the chunk's verdict is stored (past the retry timeout) the lock is released
      await("chunk 0's verdict stored while the table is locked")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> storedVerdicts(observer) >= 1);
      locker.rollback();

      // Then chunk 0 (chunks count from 0) is UNVERIFIABLE, naming the target, table, chunk and
      // both timeouts; no row of
      // it is judged, so nothing is reported different
      Map<Long, ChunkResult> verdicts = awaitVerdicts(results, runId, app);
      ChunkResult first = verdicts.get(0L);
      assertUnverifiableNamingTheTimeouts(first, 5000, 1000);
      assertThat(first.getError())
          .contains("target slow did not answer the verify of table public.items")
          .contains("canceling statement due to statement timeout");

      // And the chunks after it are verified, every row matched
      for (long chunk = 1; chunk < CHUNKS; chunk++) {
        assertVerifiedClean(verdicts.get(chunk), 100);
      }

      // And an alert names the target, the table and the chunk
      Alert alert = PoisonRecordIT.firstAlert(env, p.settings.tables().alertsTopic());
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getTarget()).isEqualTo("slow");
      assertThat(alert.getTable()).isEqualTo("public.items");
      assertThat(alert.getMessage())
          .contains("public.items is unverifiable on target slow")
          .contains("chunk 0 of table public.items")
          .contains("retry.timeout.ms=5000");
      app.requireHealthy();
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void aLockReleasedWithinTheRetryTimeoutIsVerifiedLateAndRight() throws Exception {
    // Given 300 rows applied, one of them then changed on the target only
    Pipeline p =
        new Pipeline(
            "lockedshort", env.targetPostgres(), Duration.ofSeconds(1), Duration.ofSeconds(30));
    try (CaptureFixture.Running capture = p.startCapture();
        VerifierApp app = p.startVerifier();
        ResultsReader results = ResultsReader.of(env, p.settings);
        Connection locker = p.target.connect(p.database);
        Connection observer = p.target.connect(p.database)) {
      p.insertAndAwaitApplied(app);
      p.sql("UPDATE items SET name = 'tampered' WHERE id = 50");

      // When another session locks the target table during a full compare
      lock(locker);
      String runId = p.compare();

      // Then the verify waits, its statement is cancelled by the timeout and tried again (the
      // fault bit: a second attempt waits, started after the first)
      Instant firstAttempt = awaitBlockedVerify(observer, p, Instant.EPOCH);
      Instant retried = awaitBlockedVerify(observer, p, firstAttempt);
      assertThat(retried).isAfter(firstAttempt);
      assertThat(storedVerdicts(observer)).as("no verdict while locked").isZero();

      // When the lock is released within the retry timeout
      locker.rollback();

      // Then every chunk is verified, and exactly the changed row is found
      Map<Long, ChunkResult> verdicts = awaitVerdicts(results, runId, app);
      ChunkResult first = verdicts.get(0L);
      assertThat(first.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(first.getFailedKeys()).containsExactly("50");
      assertThat(first.getCounts().getMatched()).isEqualTo(99);
      assertThat(first.getMissedKeys()).isEmpty();
      assertThat(first.getExtraKeys()).isEmpty();
      assertVerifiedClean(verdicts.get(1L), 100);
      assertVerifiedClean(verdicts.get(2L), 100);
      app.requireHealthy();
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void aTargetRestartedWhileAVerifyWaitsIsVerifiedAgainAfterTheRestartAndRight() throws Exception {
    // Given 300 rows applied, one of them then deleted on the target only
    Pipeline p =
        new Pipeline(
            "restarted", env.targetPostgres(), Duration.ofSeconds(20), Duration.ofSeconds(40));
    try (CaptureFixture.Running capture = p.startCapture();
        VerifierApp app = p.startVerifier();
        ResultsReader results = ResultsReader.of(env, p.settings);
        Connection locker = p.target.connect(p.database)) {
      p.insertAndAwaitApplied(app);
      p.sql("DELETE FROM items WHERE id = 250");

      // When a verify waits for a lock of another session
      lock(locker);
      String runId = p.compare();
      long blocked;
      try (Connection observer = p.target.connect(p.database)) {
        awaitBlockedVerify(observer, p, Instant.EPOCH);
        blocked = blockedVerifyPid(observer, p).orElseThrow();
      }
      // And the target database restarts under it
      List<Long> before = pids();
      env.targetPostgres().restart();

      // Then the restart was real: other server processes, the waiting session is gone
      assertThat(pids()).doesNotContainAnyElementsOf(before);
      assertThat(locker.isValid(5)).as("the locking session survived the restart").isFalse();

      // And the verify is tried again after the restart: every chunk verified, exactly the deleted
      // row missed, and the verifier never stopped
      Map<Long, ChunkResult> verdicts = awaitVerdicts(results, runId, app);
      assertVerifiedClean(verdicts.get(0L), 100);
      assertVerifiedClean(verdicts.get(1L), 100);
      ChunkResult last = verdicts.get(2L);
      assertThat(last.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(last.getMissedKeys()).containsExactly("250");
      assertThat(last.getCounts().getMatched()).isEqualTo(99);
      assertThat(last.getFailedKeys()).isEmpty();
      assertThat(last.getExtraKeys()).isEmpty();
      try (Connection observer = p.target.connect(p.database)) {
        assertThat(verifierPids(observer, p)).doesNotContain(blocked);
      }
      app.requireHealthy();
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void aRowLockedOnAMariaDbTargetMakesTheApplyWaitAndRetryThenApplyOnceReleased() throws Exception {
    // Given 300 rows applied to a MariaDB target whose lock waits end after 1 s
    Pipeline p =
        new Pipeline("mrowlock", env.mariadb(), Duration.ofSeconds(1), Duration.ofSeconds(30));
    try (CaptureFixture.Running capture = p.startCapture();
        VerifierApp app = p.startVerifier();
        Connection locker = p.target.connect(p.database);
        Connection observer = p.target.connect(p.database)) {
      p.insertAndAwaitApplied(app);

      // When another session locks row 50 and the source changes it
      locker.setAutoCommit(false);
      try (Statement s = locker.createStatement()) {
        s.executeQuery("SELECT * FROM items WHERE id = 50 FOR UPDATE").close();
      }
      p.source.sql("UPDATE items SET name = 'changed' WHERE id = 50");

      // Then the apply waits for the lock, gives up after the lock wait timeout and waits again
      // (the fault bit: a second wait, started after the first)
      Instant first = awaitLockWait(observer, Instant.EPOCH);
      Instant second = awaitLockWait(observer, first);
      assertThat(second).isAfter(first);
      assertThat(p.name(50)).isEqualTo("item 50");

      // When the lock is released within the retry timeout
      locker.rollback();

      // Then the change is applied once, and the verifier never stopped
      await("the change applied")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                app.requireHealthy();
                assertThat(p.name(50)).isEqualTo("changed");
              });
      assertThat(p.count()).isEqualTo(ROWS);
      app.requireHealthy();
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void aTableLockedOnAMariaDbTargetBeyondTheRetryTimeoutMakesTheChunkUnverifiable()
      throws Exception {
    // Given 300 rows applied to a MariaDB target whose statements time out after 1 s, retried 5 s
    Pipeline p =
        new Pipeline("mtablelock", env.mariadb(), Duration.ofSeconds(1), Duration.ofSeconds(5));
    try (CaptureFixture.Running capture = p.startCapture();
        VerifierApp app = p.startVerifier();
        ResultsReader results = ResultsReader.of(env, p.settings);
        Connection locker = p.target.connect(p.database);
        Connection observer = p.target.connect(p.database)) {
      p.insertAndAwaitApplied(app);

      // When another session write-locks the target table (InnoDB's reads do not wait for row
      // locks; a table lock blocks them) and a full compare runs
      try (Statement s = locker.createStatement()) {
        s.execute("LOCK TABLES items WRITE");
      }
      String runId = p.compare();

      // Then a verify really waits for the table lock (the fault bit)
      await("a verify waits for the table lock")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> metadataLockWaits(observer, p.database) > 0);
      // And once chunk 0's verdict is stored (past the retry timeout) the lock is released
      await("chunk 0's verdict stored while the table is locked")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> storedVerdicts(observer) >= 1);
      try (Statement s = locker.createStatement()) {
        s.execute("UNLOCK TABLES");
      }

      // Then chunk 0 is UNVERIFIABLE, naming the target, the table, the chunk and both timeouts;
      // no row of it is judged
      Map<Long, ChunkResult> verdicts = awaitVerdicts(results, runId, app);
      ChunkResult first = verdicts.get(0L);
      assertUnverifiableNamingTheTimeouts(first, 5000, 1000);
      assertThat(first.getError()).contains("target slow did not answer the verify of table");
      // And the chunks after it are verified, every row matched, the verifier still running
      for (long chunk = 1; chunk < CHUNKS; chunk++) {
        assertVerifiedClean(verdicts.get(chunk), 100);
      }
      Alert alert = PoisonRecordIT.firstAlert(env, p.settings.tables().alertsTopic());
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getTarget()).isEqualTo("slow");
      app.requireHealthy();
    }
  }

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void anApplyKeptWaitingOnAMariaDbRowLockBeyondTheRetryTimeoutStopsTheVerifierAndLosesNothing()
      throws Exception {
    // Given 300 rows applied to a MariaDB target whose lock waits end after 1 s, retried 4 s
    Pipeline p =
        new Pipeline("mrowlong", env.mariadb(), Duration.ofSeconds(1), Duration.ofSeconds(4));
    try (CaptureFixture.Running capture = p.startCapture();
        Connection locker = p.target.connect(p.database);
        Connection observer = p.target.connect(p.database)) {
      try (VerifierApp app = p.startVerifier()) {
        p.insertAndAwaitApplied(app);

        // When another session keeps row 50 locked and the source changes it
        locker.setAutoCommit(false);
        try (Statement s = locker.createStatement()) {
          s.executeQuery("SELECT * FROM items WHERE id = 50 FOR UPDATE").close();
        }
        p.source.sql("UPDATE items SET name = 'changed' WHERE id = 50");

        // Then the apply waits for the lock (the fault bit), and past the retry timeout the
        // verifier stops, naming the target and both timeouts; the change is not applied
        awaitLockWait(observer, Instant.EPOCH);
        await("the verifier stopped")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThatThrownBy(app::requireHealthy)
                        .satisfies(
                            stopped ->
                                assertThat(causes(stopped))
                                    .contains("target slow did not answer the apply of")
                                    .contains("retry.timeout.ms=4000")
                                    .contains("statement.timeout.ms=1000")));
        assertThat(p.name(50)).isEqualTo("item 50");
      }

      // When the lock is released and the verifier started again
      locker.rollback();
      try (VerifierApp again = p.startVerifier()) {
        // Then the change is applied, once, and nothing else is lost
        await("the change applied")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  again.requireHealthy();
                  assertThat(p.name(50)).isEqualTo("changed");
                });
        assertThat(p.count()).isEqualTo(ROWS);
      }
    }
  }

  /** The messages of {@code failure} and of every exception it was caused by. */
  private static String causes(Throwable failure) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append(" | ");
    }
    return all.toString();
  }

  /** Sessions of the MariaDB target waiting for a table's metadata lock in {@code database}. */
  private static long metadataLockWaits(Connection observer, String database) throws SQLException {
    try (PreparedStatement s =
        observer.prepareStatement(
            "SELECT count(*) FROM information_schema.processlist WHERE db = ?"
                + " AND state LIKE 'Waiting for table metadata lock%'")) {
      s.setString(1, database);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Waits until a transaction on the MariaDB target waits for a lock since after {@code after}. */
  private static Instant awaitLockWait(Connection observer, Instant after) {
    Instant[] started = new Instant[1];
    await("a transaction waits for a lock since after " + after)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              try (Statement s = observer.createStatement();
                  ResultSet rs =
                      s.executeQuery(
                          "SELECT max(trx_wait_started) FROM information_schema.innodb_trx"
                              + " WHERE trx_state = 'LOCK WAIT'")) {
                rs.next();
                java.sql.Timestamp t = rs.getTimestamp(1);
                if (t != null && t.toInstant().isAfter(after)) {
                  started[0] = t.toInstant();
                  return true;
                }
                return false;
              }
            });
    return started[0];
  }

  /** A source table {@code items} captured into one partition and a target {@code slow}. */
  private static final class Pipeline {
    final CaptureFixture source = new CaptureFixture(env);
    final JdbcServer target;
    final String database;
    final VerifierSettings settings;

    Pipeline(String name, JdbcServer target, Duration statementTimeout, Duration retryTimeout)
        throws SQLException {
      this.target = target;
      source.sql(DDL);
      database = target.createDatabase(name + "_" + source.prefix);
      sql(DDL);
      boolean mariadb = target.jdbcUrl(database).startsWith("jdbc:mariadb:");
      settings =
          VerifierSettings.builder("slow")
              .applicationId("verify-" + source.prefix)
              .bootstrapServers(env.kafka().bootstrapServers())
              .registryUrl(env.registry().confluentApiUrl())
              .topicPrefix(source.prefix)
              .table(ITEMS, mariadb ? new TableName(database, "items") : ITEMS)
              .target(target.jdbcUrl(database), target.user(), target.password())
              .applyBatchSize(100)
              .applyMaxDelay(Duration.ofMillis(100))
              .streamsProperty("commit.interval.ms", "200")
              .alertsTopic("alerts-" + source.prefix)
              .statementTimeout(statementTimeout)
              .retryTimeout(retryTimeout)
              .build();
    }

    CaptureFixture.Running startCapture() throws Exception {
      Map<String, String> config = source.captureConfig("public.items");
      config.put("topic.partitions", "1");
      return source.start(config);
    }

    VerifierApp startVerifier() throws Exception {
      return VerifierApp.start(settings, CommitAudit.of(settings, target, database, ITEMS));
    }

    void insertAndAwaitApplied(VerifierApp app) throws SQLException {
      source.sql(
          "INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, " + ROWS + ") g");
      await("rows applied")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                app.requireHealthy();
                assertThat(count()).isEqualTo(ROWS);
              });
    }

    /** Runs a full compare (deep=100, 3 chunks) and returns its run id. */
    String compare() throws Exception {
      Map<String, String> task = source.task("full", "public.items");
      task.put("chunk", "100");
      task.put("deep", "100");
      CompareRun.Summary run = new CompareRun(CompareConfig.of(task), false).run();
      assertThat(run.tables().get(0).chunks()).isEqualTo(CHUNKS);
      return run.tables().get(0).runId();
    }

    void sql(String... statements) throws SQLException {
      try (Connection c = target.connect(database);
          Statement s = c.createStatement()) {
        for (String statement : statements) {
          s.execute(statement);
        }
      }
    }

    String name(int id) throws SQLException {
      try (Connection c = target.connect(database);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT name FROM items WHERE id = " + id)) {
        rs.next();
        return rs.getString(1);
      }
    }

    long count() throws SQLException {
      try (Connection c = target.connect(database);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Locks the target table against every other session, reads included, until rollback. */
  private static void lock(Connection locker) throws SQLException {
    locker.setAutoCommit(false);
    try (Statement s = locker.createStatement()) {
      s.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
    }
  }

  /**
   * Waits until a statement of the verifier started after {@code after} waits for a lock; returns
   * when that statement started.
   */
  private static Instant awaitBlockedVerify(Connection observer, Pipeline p, Instant after) {
    Instant[] started = new Instant[1];
    await("a verify statement started after " + after + " waits for the lock")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              try (PreparedStatement s =
                  observer.prepareStatement(
                      "SELECT query_start FROM pg_stat_activity WHERE datname = ?"
                          + " AND application_name LIKE ? AND wait_event_type = 'Lock'"
                          + " ORDER BY query_start DESC LIMIT 1")) {
                s.setString(1, p.database);
                s.setString(2, p.settings.applicationId() + "-%");
                try (ResultSet rs = s.executeQuery()) {
                  if (rs.next() && rs.getTimestamp(1).toInstant().isAfter(after)) {
                    started[0] = rs.getTimestamp(1).toInstant();
                    return true;
                  }
                  return false;
                }
              }
            });
    return started[0];
  }

  private static Optional<Long> blockedVerifyPid(Connection observer, Pipeline p)
      throws SQLException {
    try (PreparedStatement s =
        observer.prepareStatement(
            "SELECT pid FROM pg_stat_activity WHERE datname = ? AND application_name LIKE ?"
                + " AND wait_event_type = 'Lock'")) {
      s.setString(1, p.database);
      s.setString(2, p.settings.applicationId() + "-%");
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
      }
    }
  }

  private static List<Long> verifierPids(Connection observer, Pipeline p) throws SQLException {
    try (PreparedStatement s =
        observer.prepareStatement(
            "SELECT pid FROM pg_stat_activity WHERE datname = ? AND application_name LIKE ?")) {
      s.setString(1, p.database);
      s.setString(2, p.settings.applicationId() + "-%");
      List<Long> pids = new java.util.ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          pids.add(rs.getLong(1));
        }
      }
      return pids;
    }
  }

  /** Verdicts stored on the target (the bookkeeping table is not the locked one). */
  private static long storedVerdicts(Connection observer) throws SQLException {
    try (Statement s = observer.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM cdc_compare_verdicts")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<Long> pids() {
    return env.targetPostgres().processes().stream().map(ProcessHandle::pid).toList();
  }

  /** Every chunk's result of the run, by chunk; exactly one per chunk. */
  private static Map<Long, ChunkResult> awaitVerdicts(
      ResultsReader results, String runId, VerifierApp app) {
    Map<Long, ChunkResult> byChunk = new TreeMap<>();
    await("a verdict for each of the " + CHUNKS + " chunks")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              app.requireHealthy();
              for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
                ChunkResult old = byChunk.put(r.value().getChunk(), r.value());
                assertThat(old == null || old.equals(r.value()))
                    .as("one verdict for chunk %s", r.value().getChunk())
                    .isTrue();
              }
              return byChunk.size() == CHUNKS;
            });
    return byChunk;
  }

  /**
   * The chunk is UNVERIFIABLE, its one-line reason naming the chunk, the table and both timeouts,
   * and no row of it was judged.
   */
  private static void assertUnverifiableNamingTheTimeouts(
      ChunkResult result, long retryMillis, long statementMillis) {
    assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
    assertThat(result.getError())
        .contains("chunk " + result.getChunk() + " of table public.items")
        .contains("retry.timeout.ms=" + retryMillis)
        .contains("statement.timeout.ms=" + statementMillis)
        .doesNotContain("\n");
    assertThat(result.getCounts().getMatched()).isZero();
    assertThat(result.getFailedKeys()).isEmpty();
    assertThat(result.getMissedKeys()).isEmpty();
    assertThat(result.getExtraKeys()).isEmpty();
  }

  private static void assertVerifiedClean(ChunkResult result, long matched) {
    assertThat(result.getState()).as("chunk %s", result.getChunk()).isEqualTo(ChunkState.VERIFIED);
    assertThat(result.getCounts().getMatched())
        .as("chunk %s", result.getChunk())
        .isEqualTo(matched);
    assertThat(result.getFailedKeys()).isEmpty();
    assertThat(result.getMissedKeys()).isEmpty();
    assertThat(result.getExtraKeys()).isEmpty();
  }
}
