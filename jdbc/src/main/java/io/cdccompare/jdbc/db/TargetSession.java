package io.cdccompare.jdbc.db;

import io.cdccompare.jdbc.sql.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Puts a connection of cdc-compare's own into the session state its SQL relies on, and ends its
 * failed transactions.
 */
public final class TargetSession {

  private TargetSession() {}

  /**
   * Runs the dialect's {@link Dialect#sessionSetupSql()} (for MariaDB: time zone {@code +00:00}).
   * Call once per connection, before any transaction.
   */
  public static void prepare(Connection connection, Dialect dialect) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : dialect.sessionSetupSql()) {
        statement.execute(sql);
      }
    }
  }

  /**
   * Bounds every statement of the session ({@link Dialect#statementTimeoutSql}) and, beyond it, the
   * wait for any answer of the server (the JDBC network timeout, twice the statement timeout plus
   * 10 s): a target that locks, stalls or freezes fails with an error instead of blocking its
   * caller without end. Call once per connection, before any transaction.
   */
  public static void limit(Connection connection, Dialect dialect, Duration statementTimeout)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : dialect.statementTimeoutSql(statementTimeout)) {
        statement.execute(sql);
      }
    }
    long network = statementTimeout.multipliedBy(2).plusSeconds(10).toMillis();
    connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, network));
  }

  /**
   * Rolls back the transaction that {@code cause} failed; a failure of the rollback itself is added
   * to {@code cause} as suppressed, so that {@code cause} stays the error the caller throws.
   */
  public static void rollback(Connection connection, Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException rollback) {
      cause.addSuppressed(rollback);
    }
  }
}
