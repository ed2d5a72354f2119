package io.cdccompare.operations.status;

import io.cdccompare.verifier.stream.VerifierSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * Driver properties that bound connecting and every statement, so a database that does not answer
 * gives an error instead of a hang. Settings already in the URL take precedence (both drivers let
 * URL parameters override properties).
 */
public final class JdbcTimeouts {
  private JdbcTimeouts() {}

  public static Properties properties(String jdbcUrl, Duration timeout) {
    Properties props = new Properties();
    long seconds = Math.max(1, timeout.toSeconds());
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      // pgjdbc: seconds
      props.put("connectTimeout", Long.toString(seconds));
      props.put("loginTimeout", Long.toString(seconds));
      props.put("socketTimeout", Long.toString(seconds));
    } else {
      // MariaDB Connector/J: milliseconds
      props.put("connectTimeout", Long.toString(timeout.toMillis()));
      props.put("socketTimeout", Long.toString(timeout.toMillis()));
    }
    return props;
  }

  /**
   * Connects to a verifier's target database within {@code timeout}, every statement bounded the
   * same way.
   */
  public static Connection connect(VerifierSettings.TargetDatabase database, Duration timeout)
      throws SQLException {
    Properties props = properties(database.jdbcUrl(), timeout);
    props.put("user", database.user());
    props.put("password", database.password());
    return DriverManager.getConnection(database.jdbcUrl(), props);
  }

  /** The URL without parameters, as shown to the user (parameters may hold credentials). */
  public static String display(String jdbcUrl) {
    return jdbcUrl.split("\\?")[0];
  }
}
