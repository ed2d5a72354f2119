package io.cdccompare.producer.repair;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.PostgresDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The types of a table's key columns on the source PostgreSQL, for {@link ResendFilter}: the
 * database-independent type by the same mapping the compare and the capture use (jdbc's PostgreSQL
 * dialect), and the SQL type without modifier to cast literals to. {@code char(n)} is cast to
 * {@code bpchar}: {@code format_type} without modifier names it {@code character}, which is {@code
 * char(1)} and would cut {@code 'ab'} to {@code 'a'}, another key. Names are bound parameters.
 */
final class SourceKeyColumns {
  private static final PostgresDialect DIALECT = new PostgresDialect();

  private SourceKeyColumns() {}

  /**
   * @throws IllegalArgumentException naming the table for a missing column or a type that cannot be
   *     part of a key
   */
  static List<ResendFilter.KeyColumn> of(Connection source, TableName table, List<String> names)
      throws SQLException {
    if (names.isEmpty()) {
      throw new IllegalArgumentException("table " + table + ": no key column given");
    }
    List<ResendFilter.KeyColumn> columns = new ArrayList<>();
    try (PreparedStatement p =
        source.prepareStatement(
            "SELECT t.typname, CASE WHEN t.typname = 'bpchar' THEN 'bpchar'"
                + " ELSE format_type(a.atttypid, NULL) END FROM pg_attribute a"
                + " JOIN pg_class c ON c.oid = a.attrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " JOIN pg_type t ON t.oid = a.atttypid"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attname = ?"
                + " AND a.attnum > 0 AND NOT a.attisdropped")) {
      for (String name : names) {
        p.setString(1, table.schema());
        p.setString(2, table.table());
        p.setString(3, name);
        try (ResultSet rs = p.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalArgumentException(
                "table " + table + " has no column " + name + " on the source");
          }
          columns.add(
              new ResendFilter.KeyColumn(
                  name, type(table, name, rs.getString(1)), rs.getString(2)));
        }
      }
    }
    return columns;
  }

  private static LogicalType type(TableName table, String column, String typeName) {
    LogicalType type;
    try {
      type = DIALECT.access(column, ColumnType.of(typeName)).defaultType();
    } catch (IllegalArgumentException e) {
      type = LogicalType.JSON;
    }
    if (type == LogicalType.JSON) {
      throw new IllegalArgumentException(
          "table "
              + table
              + " key column "
              + column
              + " has type "
              + typeName
              + ", which cannot be part of a compared key");
    }
    return type;
  }
}
