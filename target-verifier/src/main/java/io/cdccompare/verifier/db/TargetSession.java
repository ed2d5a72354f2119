package io.cdccompare.verifier.db;

import io.cdccompare.verifier.sql.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Puts a connection of cdc-compare's own into the session state its SQL relies on. */
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
}
