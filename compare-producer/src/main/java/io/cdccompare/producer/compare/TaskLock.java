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
    return held ? null : named(config, application(config));
  }

  /** The application name of the session that holds a task's lock (what a refusal names). */
  static String application(CompareConfig config) {
    return "cdc-compare-lock-" + config.taskName();
  }

  /**
   * The lock of the task on a session named {@code application} (what a refused second process is
   * told holds it).
   */
  static TaskLock named(CompareConfig config, String application) throws SQLException {
    return new TaskLock(config.source().connect(application), config.taskName());
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
              "task " + task + " is already running in another process: " + holder());
        }
      }
    } finally {
      connection.commit();
    }
  }

  /** Which session holds the task's lock, as far as the server still shows it. */
  private String holder() throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "WITH k AS (SELECT hashtextextended(?, 0) AS v)"
                + " SELECT a.pid, a.application_name, a.backend_start"
                + " FROM k, pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                + " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
                + " AND l.classid::bigint = ((k.v >> 32) & 4294967295)"
                + " AND l.objid::bigint = (k.v & 4294967295)")) {
      s.setString(1, "cdc-compare task " + task);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return "its lock is held (the holding session has just ended: try again)";
        }
        return "session pid "
            + rs.getInt(1)
            + " ("
            + rs.getString(2)
            + ", connected at "
            + rs.getTimestamp(3).toInstant()
            + ") holds its lock";
      }
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
