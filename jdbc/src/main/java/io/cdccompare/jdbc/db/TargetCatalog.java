package io.cdccompare.jdbc.db;

import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The physical columns of the target's tables ({@link TableCatalog#describe}), read once per table
 * and kept: a table's columns are not expected to change under a running apply (a changed table is
 * schema drift, found by the note's column fingerprint). A missing table or column is a {@link
 * TargetSchemaException} naming it.
 *
 * <p>Not thread-safe: one per connection, like the applier and verifier that use it.
 */
public final class TargetCatalog {

  /** PostgreSQL {@code undefined_table}; MariaDB/MySQL {@code ER_NO_SUCH_TABLE}. */
  private static final String POSTGRES_UNDEFINED_TABLE = "42P01";

  private static final String MARIADB_NO_SUCH_TABLE = "42S02";

  private final Connection connection;
  private final Dialect dialect;
  private final Map<TableRef, Map<String, ColumnType>> tables = new HashMap<>();

  public TargetCatalog(Connection connection, Dialect dialect) {
    this.connection = connection;
    this.dialect = dialect;
  }

  /**
   * Column name → physical type, in table order.
   *
   * @throws TargetSchemaException if the table does not exist
   */
  public Map<String, ColumnType> describe(TableRef table) throws SQLException {
    Map<String, ColumnType> columns = tables.get(table);
    if (columns == null) {
      try {
        columns = Collections.unmodifiableMap(TableCatalog.describe(connection, dialect, table));
      } catch (SQLException e) {
        if (isMissingTable(e)) {
          throw TargetSchemaException.missingTable(dialect.name(), table, e);
        }
        throw e;
      }
      tables.put(table, columns);
    }
    return columns;
  }

  /**
   * The physical types of the given columns.
   *
   * @throws TargetSchemaException naming the first column (or the table) that does not exist
   */
  public Map<String, ColumnType> require(TableRef table, Collection<String> columns)
      throws SQLException {
    Map<String, ColumnType> all = describe(table);
    for (String column : columns) {
      if (!all.containsKey(column)) {
        throw TargetSchemaException.missingColumn(dialect.name(), table, column);
      }
    }
    return all;
  }

  private static boolean isMissingTable(SQLException e) {
    String state = e.getSQLState();
    return POSTGRES_UNDEFINED_TABLE.equals(state)
        || MARIADB_NO_SUCH_TABLE.equals(state)
        || e.getErrorCode() == 1146;
  }
}
