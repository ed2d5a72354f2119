package io.cdccompare.producer.compare;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The lock that keeps two processes from running the same task at once: a PostgreSQL session-level
 * advisory lock on the task name, held by a connection of its own for as long as the run lasts and
 * released when it closes (or when the process dies and the server ends its session).
 */
final class TaskLock implements AutoCloseable {
  private final Connection connection;
  private final String task;

  /**
   * The lock of the task's run on a session of its own, or null when the run's caller holds it
   * already ({@code held}: an incremental run's parts).
   */
  static TaskLock of(CompareConfig config, boolean held) throws SQLException {
    String task = config.taskName();
    return held ? null : new TaskLock(config.source().connect("cdc-compare-lock-" + task), task);
  }

  TaskLock(Connection connection, String task) throws SQLException {
    this.connection = connection;
    this.task = task;
    connection.setAutoCommit(false);
  }

  /**
   * Takes the task's lock for this session (a PostgreSQL advisory lock), so that two processes
   * never run the same task at once.
   *
   * @throws IllegalStateException if another session holds it
   */
  void take() throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement("SELECT pg_try_advisory_lock(hashtextextended(?, 0))")) {
      s.setString(1, "cdc-compare task " + task);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          throw new IllegalStateException(
              "task " + task + " is already running in another process (its lock is held)");
        }
      }
    } finally {
      connection.commit();
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
