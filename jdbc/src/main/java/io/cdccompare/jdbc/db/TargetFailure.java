package io.cdccompare.jdbc.db;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Which target failures are transient: worth the same work again, on the same connection or a new
 * one, because the database may answer next time. The one place that decides it for applies and
 * verifies (docs/design.md, "Delivery guarantees"). Transient: a broken or refused connection, a
 * server shutting down or starting, a statement cancelled by its timeout or a lock wait timeout, a
 * serialization failure or deadlock, too many connections. Everything else (a missing table, a
 * refused value, bad credentials) is fatal: trying again would fail the same way.
 */
public final class TargetFailure {
  /** PostgreSQL and standard SQL states that name a transient failure (class 08 below). */
  private static final Set<String> TRANSIENT_STATES =
      Set.of(
          "57014", // query_canceled: statement_timeout
          "57P01", // admin_shutdown
          "57P02", // crash_shutdown
          "57P03", // cannot_connect_now: starting up
          "55P03", // lock_not_available: lock_timeout
          "40001", // serialization failure; MariaDB deadlock 1213
          "40P01", // deadlock_detected
          "53300", // too_many_connections
          "70100"); // MariaDB: statement interrupted (max_statement_time, connection killed)

  /** MariaDB error codes of transient failures whose SQL state is the generic HY000. */
  private static final Set<Integer> TRANSIENT_MARIADB_CODES =
      Set.of(
          1205, // lock wait timeout exceeded
          1213, // deadlock
          1969, // max_statement_time exceeded
          1927, // connection was killed
          1053); // server shutdown in progress

  private TargetFailure() {}

  /** True when {@code failure}, or an exception it was caused by, is a transient target failure. */
  public static boolean isTransient(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException e && isTransient(e)) {
        return true;
      }
      if (t.getCause() == t) {
        return false;
      }
    }
    return false;
  }

  private static boolean isTransient(SQLException e) {
    if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
      return true;
    }
    String state = e.getSQLState();
    if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
      return true;
    }
    return TRANSIENT_MARIADB_CODES.contains(e.getErrorCode())
        || e.getCause() instanceof IOException;
  }
}
