package io.cdccompare.jdbc.hash;

import io.cdccompare.core.rowhash.plan.SourceColumn;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the physical column types of a table from the driver's result set metadata (the names the
 * dialects map), in the table's column order.
 */
public final class TableCatalog {

  private TableCatalog() {}

  /** Column name → physical type, in table order. */
  public static Map<String, ColumnType> describe(
      Connection connection, Dialect dialect, TableRef table) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(dialect.describeSql(table))) {
      ResultSetMetaData metaData = rows.getMetaData();
      Map<String, ColumnType> columns = new LinkedHashMap<>();
      for (int i = 1; i <= metaData.getColumnCount(); i++) {
        columns.put(metaData.getColumnName(i), ColumnType.of(metaData, i));
      }
      return columns;
    }
  }

  /** The columns with the logical types the dialect gives them, to resolve a hash plan. */
  public static List<SourceColumn> sourceColumns(Dialect dialect, Map<String, ColumnType> columns) {
    List<SourceColumn> result = new ArrayList<>(columns.size());
    columns.forEach(
        (name, type) ->
            result.add(new SourceColumn(name, dialect.access(name, type).defaultType())));
    return result;
  }
}
