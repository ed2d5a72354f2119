package io.cdccompare.verifier.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What differs between databases when reading rows for hashing and binding key values: identifier
 * quoting, how each physical type is selected, read and bound. A dialect only produces SQL text and
 * per-column strategies; {@link io.cdccompare.verifier.hash.JdbcRowHasher} and the callers execute.
 * Implementations are stateless and thread-safe.
 */
public interface Dialect {

  /** {@code postgresql} or {@code mariadb}. */
  String name();

  /** The identifier quoted for this database (embedded quote characters doubled). */
  String quote(String identifier);

  /**
   * How to select, read and bind a column of this physical type.
   *
   * @param column the column's name, for the error message
   * @throws UnsupportedColumnTypeException if the type cannot be compared
   */
  ColumnAccess access(String column, ColumnType type);

  /**
   * Binds a value decoded from a key ({@link io.cdccompare.core.key.KeyText#toBindValue}) to a
   * parameter compared with a column of the given physical type.
   */
  void bind(PreparedStatement statement, int index, Object value, ColumnType type)
      throws SQLException;

  default String qualified(TableRef table) {
    return table.schema() == null
        ? quote(table.table())
        : quote(table.schema()) + "." + quote(table.table());
  }

  /** A query returning no row whose metadata describes every column of the table. */
  default String describeSql(TableRef table) {
    return "SELECT * FROM " + qualified(table) + " WHERE 1 = 0";
  }

  /** The rows of the table, {@code selectList} in that order, ordered by the key columns. */
  default String selectAllSql(TableRef table, List<String> selectList, List<String> keyColumns) {
    return "SELECT "
        + String.join(", ", selectList)
        + " FROM "
        + qualified(table)
        + " ORDER BY "
        + keyColumns.stream().map(this::quote).collect(Collectors.joining(", "));
  }

  /**
   * The row with one key: {@code WHERE (k1, k2) = (p1, p2)}, with the placeholders of the key
   * columns' {@link ColumnAccess}. Both databases accept row-value equality.
   */
  default String selectByKeySql(
      TableRef table, List<String> selectList, List<String> keyColumns, List<String> placeholders) {
    if (keyColumns.size() != placeholders.size()) {
      throw new IllegalArgumentException("one placeholder per key column");
    }
    return "SELECT "
        + String.join(", ", selectList)
        + " FROM "
        + qualified(table)
        + " WHERE ("
        + keyColumns.stream().map(this::quote).collect(Collectors.joining(", "))
        + ") = ("
        + String.join(", ", placeholders)
        + ")";
  }

  /**
   * The dialect of a JDBC URL ({@code jdbc:postgresql:}, {@code jdbc:mariadb:}, {@code
   * jdbc:mysql:}).
   */
  static Dialect forJdbcUrl(String url) {
    if (url.startsWith("jdbc:postgresql:")) {
      return new PostgresDialect();
    }
    if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
      return new MariaDbDialect();
    }
    throw new IllegalArgumentException("no dialect for JDBC URL " + url.split("\\?")[0]);
  }
}
