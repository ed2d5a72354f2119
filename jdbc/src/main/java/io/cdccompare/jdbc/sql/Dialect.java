package io.cdccompare.jdbc.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What differs between databases when reading rows for hashing and binding key values: identifier
 * quoting, how each physical type is selected, read and bound. A dialect only produces SQL text and
 * per-column strategies; {@link io.cdccompare.jdbc.hash.JdbcRowHasher} and the callers execute.
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

  /**
   * Whether a key bound ({@code key > bound}, {@code >=}, {@code <=}) is written as one row-value
   * comparison, {@code (a, b) > (?, ?)}, which the database turns into an index range. A dialect
   * whose optimizer does not (MariaDB uses no index for a row-value inequality, so every range read
   * of a composite key scanned the whole table) gets the same order written as an OR of key
   * prefixes, {@code a > ? OR a = ? AND b > ?}, which it does turn into index ranges ({@link
   * KeysetQueries}).
   */
  default boolean rangesByRowValue() {
    return true;
  }

  /**
   * The key column each placeholder of one key bound compares, in placeholder order, for a key of
   * {@code keyColumns} columns: every column once for a row value, else column 0, then columns 0
   * and 1, … (the prefixes of the expanded form).
   */
  default int[] boundColumns(int keyColumns) {
    if (rangesByRowValue()) {
      return java.util.stream.IntStream.range(0, keyColumns).toArray();
    }
    int[] columns = new int[keyColumns * (keyColumns + 1) / 2];
    int next = 0;
    for (int prefix = 1; prefix <= keyColumns; prefix++) {
      for (int column = 0; column < prefix; column++) {
        columns[next++] = column;
      }
    }
    return columns;
  }

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
   * A look-up of {@code keys} keys in one statement (key lists, {@code KeyLookup}): {@code WHERE
   * (k1 = ? AND k2 = ?) OR (…)}, one group of {@code placeholders} per key, bound in key order as
   * {@link #selectByKeySql}'s. Equalities OR-ed, not row values, so that MariaDB (which does not
   * range-optimise row-value comparisons) reads each key by index as PostgreSQL does. A key of one
   * column is asked as {@code WHERE k IN (?, ?, …)}: PostgreSQL plans that as one index scan over
   * an array of keys, not as one index scan per OR-ed key (bench/README.md, "IncrementalVsFull":
   * the look-up of 1 000 keys took 7–24 ms as one statement, 24–49 ms as ten); MariaDB reads it by
   * index too. Rows come in no particular order.
   */
  default String selectByKeysSql(
      TableRef table,
      List<String> selectList,
      List<String> keyColumns,
      List<String> placeholders,
      int keys) {
    if (keyColumns.size() != placeholders.size()) {
      throw new IllegalArgumentException("one placeholder per key column");
    }
    if (keys < 1) {
      throw new IllegalArgumentException("at least one key, was " + keys);
    }
    if (keyColumns.size() == 1) {
      return "SELECT "
          + String.join(", ", selectList)
          + " FROM "
          + qualified(table)
          + " WHERE "
          + quote(keyColumns.get(0))
          + " IN ("
          + String.join(", ", java.util.Collections.nCopies(keys, placeholders.get(0)))
          + ")";
    }
    StringBuilder one = new StringBuilder("(");
    for (int i = 0; i < keyColumns.size(); i++) {
      one.append(i == 0 ? "" : " AND ")
          .append(quote(keyColumns.get(i)))
          .append(" = ")
          .append(placeholders.get(i));
    }
    one.append(')');
    return "SELECT "
        + String.join(", ", selectList)
        + " FROM "
        + qualified(table)
        + " WHERE "
        + String.join(" OR ", java.util.Collections.nCopies(keys, one));
  }

  /**
   * Statements that put a new session of cdc-compare's own into the state its SQL relies on (for
   * MariaDB a fixed {@code +00:00} time zone, which makes {@code FROM_UNIXTIME(?)} exact). Run once
   * per connection, outside any transaction.
   */
  default List<String> sessionSetupSql() {
    return List.of();
  }

  /**
   * Statements that bound how long one statement of this session may run or wait for a lock before
   * the database cancels it with an error (a slow or locked target is then a failure that can be
   * retried, not a wait without end). Run once per connection, outside any transaction.
   *
   * @param timeout positive; databases that count whole seconds round it up
   */
  List<String> statementTimeoutSql(java.time.Duration timeout);

  /**
   * Inserts a row or, when a row with the same key exists, overwrites its other columns: the
   * idempotent write of a row image. {@code columns} hold every key column; {@code placeholders}
   * are the columns' write placeholders ({@link ColumnAccess#placeholder()}).
   */
  String upsertSql(
      TableRef table, List<String> columns, List<String> placeholders, List<String> keyColumns);

  /** A plain insert of one row, {@code placeholders} parallel to {@code columns}. */
  default String insertSql(TableRef table, List<String> columns, List<String> placeholders) {
    if (columns.isEmpty() || columns.size() != placeholders.size()) {
      throw new IllegalArgumentException("one placeholder per column, at least one column");
    }
    return "INSERT INTO "
        + qualified(table)
        + " ("
        + columns.stream().map(this::quote).collect(Collectors.joining(", "))
        + ") VALUES ("
        + String.join(", ", placeholders)
        + ")";
  }

  /**
   * Deletes the row with one key: {@code k1 = p1 AND k2 = p2}, each column compared on its own so
   * that both databases use the key index.
   */
  default String deleteByKeySql(
      TableRef table, List<String> keyColumns, List<String> placeholders) {
    return "DELETE FROM " + qualified(table) + " WHERE " + keyEquals(keyColumns, placeholders);
  }

  /** {@code k1 = p1 AND k2 = p2}. */
  default String keyEquals(List<String> keyColumns, List<String> placeholders) {
    if (keyColumns.isEmpty() || keyColumns.size() != placeholders.size()) {
      throw new IllegalArgumentException("one placeholder per key column, at least one column");
    }
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < keyColumns.size(); i++) {
      if (i > 0) {
        sql.append(" AND ");
      }
      sql.append(quote(keyColumns.get(i))).append(" = ").append(placeholders.get(i));
    }
    return sql.toString();
  }

  /**
   * Creates one of cdc-compare's own tables unless it exists, with the dialect's types for the
   * neutral {@link StoredType}s (text compared exactly, byte for byte).
   */
  default String createTableIfMissingSql(
      TableRef table, List<ColumnDefinition> columns, List<String> primaryKey) {
    return "CREATE TABLE IF NOT EXISTS "
        + qualified(table)
        + " ("
        + columns.stream()
            .map(
                c ->
                    quote(c.name())
                        + " "
                        + storedTypeSql(c)
                        + (c.nullable() ? nullableSql() : " NOT NULL"))
            .collect(Collectors.joining(", "))
        + ", PRIMARY KEY ("
        + primaryKey.stream().map(this::quote).collect(Collectors.joining(", "))
        + "))"
        + tableOptionsSql();
  }

  /** The column type of a {@link StoredType} column in {@link #createTableIfMissingSql}. */
  String storedTypeSql(ColumnDefinition column);

  /** What follows the type of a nullable column in {@link #createTableIfMissingSql}. */
  default String nullableSql() {
    return "";
  }

  /** What follows the column list in {@link #createTableIfMissingSql}. */
  default String tableOptionsSql() {
    return "";
  }

  /** The physical type a {@link StoredType} column has on this database, to bind and read it. */
  ColumnType storedColumnType(StoredType type);

  /**
   * Binds a column value from a change event (the Java values of {@code EventValues.toJava}, SQL
   * NULL as {@code null}) to a parameter written into a column of the given physical type, with the
   * column's {@link ColumnAccess#placeholder()}. A time since midnight ({@code Duration}) is bound
   * as a time of day, or as its canonical text outside a day; a wall-clock timestamp written into a
   * column holding instants is taken as UTC, and an instant written into a wall-clock column is
   * written in UTC.
   *
   * @throws IllegalArgumentException if the value cannot be held by the column, naming it
   */
  default void bindWrite(
      PreparedStatement statement, int index, String column, Object value, ColumnType type)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, java.sql.Types.NULL);
    } else {
      bind(statement, index, WriteValues.normalize(this, column, type, value), type);
    }
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
