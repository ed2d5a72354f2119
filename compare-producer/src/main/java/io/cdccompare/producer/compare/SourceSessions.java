package io.cdccompare.producer.compare;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** How the compare's bookkeeping sessions on the source are set up. */
final class SourceSessions {
  private SourceSessions() {}

  /** Opens one source session (a log-in). */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  /**
   * Opens the sessions at once, each on a thread of its own, and returns them in the order given. A
   * log-in is mostly waiting (a round trip per step of SCRAM, the server forking a backend), so a
   * run that needs three pays for one. When one fails, those that opened are closed and its error
   * is thrown.
   */
  static List<Connection> openTogether(List<Opener> openers) throws SQLException {
    ExecutorService threads =
        Executors.newFixedThreadPool(
            openers.size(),
            r -> {
              Thread t = new Thread(r, "cdc-compare-log-in");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<Connection>> opening = new ArrayList<>();
      for (Opener opener : openers) {
        opening.add(threads.submit(opener::open));
      }
      List<Connection> opened = new ArrayList<>();
      Throwable failure = null;
      for (Future<Connection> future : opening) {
        try {
          opened.add(future.get());
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = failure == null ? e : failure;
        }
      }
      if (failure == null) {
        return opened;
      }
      for (Connection c : opened) {
        try {
          c.close();
        } catch (SQLException e) {
          failure.addSuppressed(e);
        }
      }
      if (failure instanceof SQLException sql) {
        throw sql;
      }
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new SQLException("source sessions could not be opened: " + failure, failure);
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * A session for notes and positions: autocommit off (each write is its own committed transaction)
   * and {@code synchronous_commit} off — notes need their order, not their durability: logical
   * decoding only streams flushed WAL, so a note lost in a source crash was never seen, and a lost
   * position re-reads a chunk.
   */
  static Connection forNotes(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("SET synchronous_commit = off");
    }
    connection.setAutoCommit(false);
    return connection;
  }
}
