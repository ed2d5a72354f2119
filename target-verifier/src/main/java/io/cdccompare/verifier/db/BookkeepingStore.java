package io.cdccompare.verifier.db;

import io.cdccompare.verifier.sql.BookkeepingSql;
import io.cdccompare.verifier.sql.ColumnType;
import io.cdccompare.verifier.sql.Dialect;
import io.cdccompare.verifier.sql.StoredType;
import io.cdccompare.verifier.sql.StoredValues;
import io.cdccompare.verifier.sql.ValueReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;

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
   */
  public void createTableIfMissing() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql.createTable());
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
