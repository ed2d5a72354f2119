package io.cdccompare.operations.status;

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

  /** The URL without parameters, as shown to the user (parameters may hold credentials). */
  public static String display(String jdbcUrl) {
    return jdbcUrl.split("\\?")[0];
  }
}
