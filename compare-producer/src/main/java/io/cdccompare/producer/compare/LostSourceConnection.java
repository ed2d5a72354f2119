package io.cdccompare.producer.compare;

import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Tells a run's lost source connection (the source restarted, its session was terminated, the
 * network broke) from its other failures, and says it in one line a user can act on: which task,
 * which source database, and that running the task again resumes the run after its last closed
 * chunk (found by the soak, docs/faults.md: the bare driver message, "This connection has been
 * closed.", named neither). Connection loss is SQLState class 08 (connection exception) and 57P
 * (operator intervention: shutdown, terminated session, database not yet accepting connections).
 */
final class LostSourceConnection {
  private LostSourceConnection() {}

  /** The first SQLException of {@code failure}'s causes that says the connection was lost. */
  static Optional<SQLException> in(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException e && lost(e.getSQLState())) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  static boolean lost(String sqlState) {
    return sqlState != null && (sqlState.startsWith("08") || sqlState.startsWith("57P"));
  }

  /** The run's failure named: the task, the source database and the run a rerun resumes. */
  static SQLException describe(
      String task, SourceDatabase source, String runId, SQLException lost, Throwable failure) {
    return new SQLException(
        "task "
            + task
            + ": lost the connection to the source database "
            + source.database()
            + " at "
            + source.host()
            + ":"
            + source.port()
            + " ("
            + lost.getSQLState()
            + " "
            + String.valueOf(lost.getMessage()).strip()
            + "); run the task again: it resumes run "
            + runId
            + " after its last closed chunk",
        lost.getSQLState(),
        failure);
  }
}
