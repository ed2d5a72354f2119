package io.cdccompare.producer.compare;

import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.TaskPositions.Position;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The source half of an incremental run's start, asked from the run's first moment on threads of
 * its own: the catalog's session logged in (the session the run resolves its tables on and its
 * key-list run reads on), and beside it the bookkeeping session logged in, the task's lock taken on
 * it and, under the lock, the task's positions read. An incremental run of a few keys would
 * otherwise pay each log-in and query after the other (compare-producer README, "Incremental runs",
 * the cost).
 *
 * <p>The bookkeeping session holds the lock (a session-level advisory lock outlives the session's
 * transactions) and carries the positions and the key-list run's notes: two log-ins for the whole
 * run. It has the lock's application name, which a refused second run names ({@link
 * TaskLock#application}).
 *
 * <p>Nothing is written before the run's thread asks: when the bookkeeping tables lack a column of
 * this version ({@link TaskPositions#tablesReady}), they are made sure of ({@link
 * TaskPositions#ensureTables}) on the run's thread when it asks for the positions, after its tables
 * resolved. The run's thread takes each answer when it needs it; a failure is thrown there as it
 * was thrown here. Closing waits for what is under way (a JDBC call cannot be interrupted; each is
 * a short query) and closes both sessions, which releases the lock.
 */
final class SourceStart implements AutoCloseable {
  private final ExecutorService threads = CompareRun.threads("cdc-compare-source-start", 2);
  private final Future<Connection> catalog;
  private final Future<Bookkeeping> bookkeeping;

  /**
   * The bookkeeping session, locked, and the positions read on it: null when the tables were not
   * ready.
   */
  private record Bookkeeping(TaskPositions positions, Map<TableName, Position> stored) {}

  /** Starts logging in, taking the lock and reading the positions. */
  SourceStart(CompareConfig config) {
    String task = config.taskName();
    this.catalog =
        threads.submit(
            () -> config.source().connect("cdc-compare-scan-" + task, CompareRun.SCAN_DRIVER));
    this.bookkeeping =
        threads.submit(
            () -> {
              Connection session = config.source().connect(TaskLock.application(config));
              TaskPositions positions =
                  closingOnFailure(session, () -> new TaskPositions(session, task));
              return closingOnFailure(
                  positions,
                  () -> {
                    new TaskLock(session, task).take();
                    // read under the lock, as every writer of them writes under it
                    return new Bookkeeping(
                        positions, positions.tablesReady() ? positions.load() : null);
                  });
            });
  }

  /** Runs {@code step}; closes {@code resource} when it fails. */
  private static <T> T closingOnFailure(AutoCloseable resource, Step<T> step) throws Exception {
    try {
      return step.run();
    } catch (Exception e) {
      try {
        resource.close();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  @FunctionalInterface
  private interface Step<T> {
    T run() throws Exception;
  }

  /** The catalog's session, closed by {@link #close()}. */
  Connection catalog() throws Exception {
    return Asked.answer(catalog);
  }

  /**
   * Waits until the task's lock is taken.
   *
   * @throws IllegalStateException when another process runs the task ({@link TaskLock#take})
   */
  void requireLock() throws Exception {
    Asked.answer(bookkeeping);
  }

  /**
   * The bookkeeping session ({@link TaskPositions}), holding the lock; closed by {@link #close()}.
   */
  TaskPositions positions() throws Exception {
    return Asked.answer(bookkeeping).positions();
  }

  /**
   * The task's stored positions, by table; the bookkeeping tables are made sure of first when they
   * lacked a column of this version.
   */
  Map<TableName, Position> stored() throws Exception {
    Bookkeeping read = Asked.answer(bookkeeping);
    if (read.stored() != null) {
      return read.stored();
    }
    read.positions().ensureTables();
    return read.positions().load();
  }

  @Override
  public void close() throws SQLException, InterruptedException {
    threads.shutdown();
    if (!threads.awaitTermination(1, TimeUnit.MINUTES)) {
      threads.shutdownNow();
      throw new IllegalStateException("the source sessions of the run's start did not answer");
    }
    Bookkeeping read = done(bookkeeping);
    SQLException failure = null;
    for (AutoCloseable opened :
        new AutoCloseable[] {done(catalog), read == null ? null : read.positions()}) {
      try {
        if (opened != null) {
          opened.close();
        }
      } catch (Exception e) {
        SQLException closing =
            e instanceof SQLException sql ? sql : new SQLException(e.getMessage(), e);
        if (failure == null) {
          failure = closing;
        } else {
          failure.addSuppressed(closing);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** What a finished step made, or null when it failed (it closed what it opened then). */
  private static <T> T done(Future<T> step) {
    try {
      return step.get();
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
