package io.cdccompare.jdbc.db;

import io.cdccompare.jdbc.sql.BookkeepingSql;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.StoredType;
import io.cdccompare.jdbc.sql.StoredValues;
import io.cdccompare.jdbc.sql.ValueReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

/**
 * Runs the statements of one bookkeeping table ({@link BookkeepingSql}) on the caller's connection
 * and in the caller's transaction: what the checkpoint and verdict stores share, the table's
 * creation and its one UTC timestamp column, bound and read as the dialect stores it. Not
 * thread-safe.
 *
 * @param <S> the table's statements
 */
public abstract class BookkeepingStore<S extends BookkeepingSql> {

  protected final Connection connection;
  protected final Dialect dialect;
  protected final S sql;
  private final ColumnType timestampType;
  private final ValueReader timestampReader;

  /**
   * @param timestampColumn the table's {@link StoredType#TIMESTAMP_UTC} column
   */
  protected BookkeepingStore(
      Connection connection, Dialect dialect, S sql, String timestampColumn) {
    this.connection = connection;
    this.dialect = dialect;
    this.sql = sql;
    this.timestampType = dialect.storedColumnType(StoredType.TIMESTAMP_UTC);
    this.timestampReader = dialect.access(timestampColumn, timestampType).reader();
  }

  /**
   * Creates the table unless it exists. DDL: run it outside the apply's transactions (MariaDB
   * commits implicitly around it).
   *
   * <p>Safe when several sessions create it at once (a verifier's stream threads open their targets
   * together): PostgreSQL's {@code CREATE TABLE IF NOT EXISTS} looks for the name before it writes
   * its catalog rows, so the loser of a race waits for the winner's commit and then fails on the
   * catalog's unique index (SQLSTATE 23505, or 42P07, 42710). The table exists then, so the
   * statement is run again (at most 3 times in all), rolled back to before it in a transaction.
   */
  public void createTableIfMissing() throws SQLException {
    for (int attempt = 1; ; attempt++) {
      Savepoint before = connection.getAutoCommit() ? null : connection.setSavepoint();
      try {
        execute(sql.createTable());
        return;
      } catch (SQLException e) {
        if (!CREATED_MEANWHILE.contains(e.getSQLState()) || attempt == 3) {
          throw e;
        }
        if (before != null) {
          connection.rollback(before);
        }
      }
    }
  }

  /**
   * SQLSTATEs of a table created by another session between the check and the creation: a unique
   * violation on the catalog, the table or its row type already there.
   */
  private static final Set<String> CREATED_MEANWHILE = Set.of("23505", "42P07", "42710");

  private void execute(String statement) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(statement);
    }
  }

  /** Binds a value of the timestamp column, to the microsecond in UTC. */
  protected void bindTimestamp(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    dialect.bind(statement, index, value.atOffset(ZoneOffset.UTC), timestampType);
  }

  /** Reads the timestamp column at {@code column} of the current row. */
  protected Instant readTimestamp(ResultSet row, int column) throws SQLException {
    return StoredValues.instant(timestampReader.read(row, column));
  }
}
