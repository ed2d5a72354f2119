package io.cdccompare.verifier.db;

import io.cdccompare.verifier.sql.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

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
