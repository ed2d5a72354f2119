package io.cdccompare.operations.status;

import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.sql.CheckpointSql;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Reads one target's checkpoints: the rows of its {@code cdc_compare_checkpoints} table (in the
 * bookkeeping schema) that belong to its verifier's application id, through the verifier's own
 * {@link CheckpointStore}. A missing table is a fact (the verifier never ran there), not a failure.
 */
final class CheckpointReader {
  /** PostgreSQL {@code undefined_table}; MariaDB {@code ER_NO_SUCH_TABLE}. */
  private static final String POSTGRES_UNDEFINED_TABLE = "42P01";

  private static final String MARIADB_NO_SUCH_TABLE = "42S02";
  private static final int MARIADB_NO_SUCH_TABLE_CODE = 1146;

  /**
   * @param note a fact worth showing (no checkpoint table yet), or {@code null}
   */
  record Checkpoints(List<Checkpoint> list, String note) {
    Checkpoints {
      list = List.copyOf(list);
    }
  }

  private final VerifierSettings settings;
  private final Duration timeout;

  CheckpointReader(VerifierSettings settings, Duration timeout) {
    this.settings = settings;
    this.timeout = timeout;
  }

  /**
   * @throws SQLException naming the target, its URL and user when it cannot be reached or read
   */
  Checkpoints read() throws SQLException {
    String url = settings.database().jdbcUrl();
    Dialect dialect = Dialect.forJdbcUrl(url);
    Connection connection;
    try {
      connection = JdbcTimeouts.connect(settings.database(), timeout);
    } catch (SQLException e) {
      throw failure("cannot connect to", e);
    }
    try (connection) {
      TargetSession.prepare(connection, dialect);
      CheckpointStore store =
          new CheckpointStore(connection, dialect, settings.database().bookkeepingSchema());
      return new Checkpoints(store.list(settings.applicationId()), null);
    } catch (SQLException e) {
      if (!isMissingTable(e)) {
        throw failure("cannot read the checkpoints of", e);
      }
      String table =
          dialect.qualified(
              new TableRef(settings.database().bookkeepingSchema(), CheckpointSql.TABLE));
      return new Checkpoints(
          List.of(), "no table " + table + " yet: no verifier has applied to this target");
    }
  }

  private SQLException failure(String what, SQLException e) {
    return new SQLException(
        what + " " + settings.targetDescription() + ": " + e.getMessage(), e.getSQLState(), e);
  }

  private static boolean isMissingTable(SQLException e) {
    return POSTGRES_UNDEFINED_TABLE.equals(e.getSQLState())
        || MARIADB_NO_SUCH_TABLE.equals(e.getSQLState())
        || e.getErrorCode() == MARIADB_NO_SUCH_TABLE_CODE;
  }
}
