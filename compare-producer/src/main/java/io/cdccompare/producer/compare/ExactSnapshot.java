package io.cdccompare.producer.compare;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Begins a chunk read's transaction so that its snapshot sees every change the stream puts before
 * the chunk's OPEN note (docs/design.md, "The read position").
 *
 * <p>PostgreSQL makes a committed transaction visible to new snapshots only when it leaves the
 * process array, which comes after its commit record is in the WAL (and after a synchronous
 * replication wait). Logical decoding follows the WAL, so a transaction whose commit record comes
 * before the OPEN's can still be invisible to a snapshot taken right after the OPEN returned: its
 * change is before the OPEN marker on every target, and a read that missed it would be judged
 * against it. A snapshot's own list of transactions in progress does not name every such
 * transaction: it lists only ids below its {@code xmax}, one past the newest id that ended, so a
 * transaction that got its id after the OPEN's and committed first is left out while it is still
 * invisible. Every such transaction holds the lock on its own id until after it left the process
 * array, and had taken it before the OPEN committed. So this class reads, after the OPEN returned
 * and before the read's snapshot, the transaction ids whose locks are held ({@code pg_locks}); when
 * there are any, it waits until each one's lock is released, at most {@code
 * read.visibility.timeout.ms}; then the read's transaction begins, and its snapshot sees every
 * transaction that committed before the OPEN. A wait that runs out fails the run naming the
 * transactions and the setting; the chunk stays OPEN and a resumed run reads it again under the
 * same number. It never reads at a position the stream contradicts.
 *
 * <p>Transactions of other databases of the server are not waited for (they cannot change the
 * source's tables): a transaction is left out when {@code pg_stat_activity} names its session under
 * another database; one it does not name (a prepared transaction, or a session not shown to this
 * user) is waited for.
 */
final class ExactSnapshot {
  private static final Logger LOG = LoggerFactory.getLogger(ExactSnapshot.class);

  /** The longest pause between two looks while transactions are waited for. */
  private static final long MAX_PAUSE_MS = 20;

  /** After this long a wait is logged at INFO, naming what it waits for. */
  private static final Duration LOGGED_AFTER = Duration.ofSeconds(1);

  /**
   * The transaction ids whose locks are held now, less those of another database's sessions: each
   * transaction holds the lock on its id from the moment it got it until it left the process array.
   */
  private static final String HELD =
      "SELECT l.transactionid::text FROM pg_locks l WHERE l.locktype = 'transactionid'"
          + " AND l.mode = 'ExclusiveLock' AND l.granted AND NOT EXISTS (SELECT 1"
          + " FROM pg_stat_activity a WHERE a.pid = l.pid AND a.datname <> current_database())";

  /** Which of the given transaction ids are still held. */
  private static final String STILL_HELD = HELD + " AND l.transactionid::text = ANY (?)";

  /** Who holds the transactions waited for, for the messages. */
  private static final String HOLDERS =
      "SELECT a.pid, l.transactionid::text, a.state, a.wait_event, a.xact_start::text,"
          + " a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
          + " WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted"
          + " AND l.transactionid::text = ANY (?) ORDER BY a.pid, l.transactionid::text";

  private final Connection connection;
  private final Duration timeout;
  private final BooleanSupplier stopping;
  private long waitedNanos;
  private long waits;

  /**
   * @param connection the read session: autocommit off, {@code REPEATABLE READ}, no transaction
   *     open
   * @param timeout how long transactions in progress at the OPEN are waited for at most
   * @param stopping whether the run was asked to stop: a wait then ends without a snapshot
   */
  ExactSnapshot(Connection connection, Duration timeout, BooleanSupplier stopping) {
    this.connection = connection;
    this.timeout = timeout;
    this.stopping = stopping;
  }

  /**
   * Readies the read, called right after the OPEN note committed: on return no transaction is open
   * on the connection, and the snapshot of the transaction its next statement begins sees every
   * transaction committed before the OPEN; the caller reads in it and ends it.
   *
   * @param what the chunk, for the messages ({@code "table public.t chunk 4"})
   * @return false when the run was asked to stop while it waited: no transaction is open then, and
   *     the chunk must not be read
   */
  boolean begin(String what) throws SQLException {
    List<String> waiting = held(HELD, List.of());
    connection.commit();
    if (waiting.isEmpty()) {
      return true;
    }
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    waits++;
    try {
      return await(what, waiting, start, deadline);
    } finally {
      waitedNanos += System.nanoTime() - start;
    }
  }

  /** How many reads waited, and how long in all, for the table's last log line. */
  long waits() {
    return waits;
  }

  long waitedNanos() {
    return waitedNanos;
  }

  private boolean await(String what, List<String> waiting, long start, long deadline)
      throws SQLException {
    LOG.debug("{}: waiting for source transactions {} to end before the read", what, waiting);
    boolean logged = false;
    long pause = 1;
    while (true) {
      if (stopping.getAsBoolean()) {
        LOG.info("{}: stopped while waiting for source transactions {}; not read", what, waiting);
        return false;
      }
      sleep(pause);
      pause = Math.min(MAX_PAUSE_MS, pause * 2);
      waiting = held(STILL_HELD, waiting);
      connection.commit();
      if (waiting.isEmpty()) {
        if (logged) {
          LOG.info(
              "{}: the source transactions waited for ended after {} ms; reading",
              what,
              (System.nanoTime() - start) / 1_000_000);
        }
        return true;
      }
      long now = System.nanoTime();
      if (now - deadline >= 0) {
        String holders = holders(waiting);
        throw new CdcCompareException(
            ErrorCode.UNVERIFIABLE,
            what
                + ": source transactions that were in progress when its OPEN note committed are"
                + " still in progress after "
                + CompareConfig.READ_VISIBILITY_TIMEOUT_MS
                + "="
                + timeout.toMillis()
                + " ("
                + holders
                + "); the chunk is not read, since a transaction already committed in the WAL"
                + " may not be visible yet. End or wait for them, or raise the setting, and run"
                + " the task again: it resumes at this chunk");
      }
      if (!logged && now - start >= LOGGED_AFTER.toNanos()) {
        logged = true;
        LOG.info(
            "{}: waiting for source transactions that were in progress when its OPEN note"
                + " committed ({}), at most {} ms",
            what,
            holders(waiting),
            timeout.toMillis());
      }
    }
  }

  /** The ids {@code query} finds held ({@code among} them, when it takes them). */
  private List<String> held(String query, List<String> among) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(query)) {
      if (!among.isEmpty()) {
        s.setArray(1, array(among));
      }
      try (ResultSet rs = s.executeQuery()) {
        return texts(rs);
      }
    }
  }

  /**
   * Each transaction with the session that holds it, as far as this user may see them, in a
   * transaction of its own.
   */
  private String holders(List<String> xids) throws SQLException {
    List<String> held = new ArrayList<>();
    try (PreparedStatement s = connection.prepareStatement(HOLDERS)) {
      s.setArray(1, array(xids));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (rs.getObject(1) == null) {
            held.add("transaction " + rs.getString(2) + " (prepared, or of a process not shown)");
            continue;
          }
          held.add(
              "transaction "
                  + rs.getString(2)
                  + " of pid "
                  + rs.getInt(1)
                  + " ("
                  + rs.getString(6)
                  + "), "
                  + rs.getString(3)
                  + (rs.getString(4) == null ? "" : " waiting on " + rs.getString(4))
                  + " since "
                  + rs.getString(5));
        }
      }
    }
    connection.commit();
    return held.isEmpty() ? "transactions " + xids : String.join("; ", held);
  }

  private Array array(List<String> xids) throws SQLException {
    return connection.createArrayOf("text", xids.toArray());
  }

  private static List<String> texts(ResultSet rs) throws SQLException {
    List<String> texts = new ArrayList<>();
    while (rs.next()) {
      texts.add(rs.getString(1));
    }
    return texts;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for source transactions to end");
    }
  }
}
