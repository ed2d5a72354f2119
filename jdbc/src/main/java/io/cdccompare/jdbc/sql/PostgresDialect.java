package io.cdccompare.jdbc.sql;

import io.cdccompare.core.rowhash.LogicalType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.stream.Collectors;

/**
 * PostgreSQL: types by the driver's names ({@code int4}, {@code numeric}, {@code float4}, {@code
 * bpchar}, {@code jsonb}, {@code timestamptz}...).
 *
 * <ul>
 *   <li>{@code numeric} is read as text so that {@code NaN} and {@code ±Infinity} survive;
 *   <li>{@code time} is read as text so that {@code 24:00:00} survives;
 *   <li>{@code timestamptz} is read as an {@code OffsetDateTime}: the driver parses the offset the
 *       server sends, so the instant does not depend on the session's {@code TimeZone};
 *   <li>{@code timestamp} and {@code date} are read as {@code LocalDateTime}/{@code LocalDate},
 *       which do not depend on the JVM's time zone ({@code infinity} becomes {@code MAX}).
 * </ul>
 */
public final class PostgresDialect implements Dialect {

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  @Override
  public ColumnAccess access(String column, ColumnType type) {
    return switch (type.typeName()) {
      case "int2", "smallserial" -> ColumnAccess.plain(LogicalType.SMALLINT, ValueReaders.LONG);
      case "int4", "serial" -> ColumnAccess.plain(LogicalType.INTEGER, ValueReaders.LONG);
      case "int8", "bigserial" -> ColumnAccess.plain(LogicalType.BIGINT, ValueReaders.LONG);
      case "numeric" -> ColumnAccess.plain(LogicalType.DECIMAL, ValueReaders.PG_NUMERIC);
      case "float4" -> ColumnAccess.plain(LogicalType.REAL, ValueReaders.FLOAT);
      case "float8" -> ColumnAccess.plain(LogicalType.DOUBLE, ValueReaders.DOUBLE);
      case "bool" -> ColumnAccess.plain(LogicalType.BOOLEAN, ValueReaders.BOOLEAN);
      case "bpchar" -> ColumnAccess.plain(LogicalType.CHAR, ValueReaders.STRING);
      case "varchar" -> ColumnAccess.plain(LogicalType.VARCHAR, ValueReaders.STRING);
      case "text", "name", "citext" -> ColumnAccess.plain(LogicalType.TEXT, ValueReaders.STRING);
      case "bytea" -> ColumnAccess.plain(LogicalType.BINARY, ValueReaders.BYTES);
      case "uuid" -> ColumnAccess.plain(LogicalType.UUID, ValueReaders.UUID_OBJECT);
      case "json", "jsonb" -> ColumnAccess.plain(LogicalType.JSON, ValueReaders.STRING);
      case "date" -> ColumnAccess.plain(LogicalType.DATE, ValueReaders.LOCAL_DATE);
      case "time" -> ColumnAccess.plain(LogicalType.TIME, ValueReaders.STRING);
      case "timestamp" -> ColumnAccess.plain(LogicalType.TIMESTAMP, ValueReaders.LOCAL_DATE_TIME);
      case "timestamptz" ->
          ColumnAccess.plain(LogicalType.TIMESTAMP_TZ, ValueReaders.OFFSET_DATE_TIME);
      default -> throw new UnsupportedColumnTypeException(name(), column, type);
    };
  }

  @Override
  public void bind(PreparedStatement statement, int index, Object value, ColumnType type)
      throws SQLException {
    if (value instanceof String text && !isCharacterType(type)) {
      // a time outside a day or other text for a typed column: let the server infer the type
      statement.setObject(index, text, Types.OTHER);
    } else {
      statement.setObject(index, value);
    }
  }

  /**
   * {@code statement_timeout}, which also bounds the wait for a lock (a table locked by another
   * session blocks even a read); a cancelled statement fails with SQL state {@code 57014}.
   */
  @Override
  public List<String> statementTimeoutSql(java.time.Duration timeout) {
    return List.of("SET statement_timeout = " + Math.max(1, timeout.toMillis()));
  }

  /** {@code INSERT … ON CONFLICT (key) DO UPDATE SET c = EXCLUDED.c} for every other column. */
  @Override
  public String upsertSql(
      TableRef table, List<String> columns, List<String> placeholders, List<String> keyColumns) {
    String keys = keyColumns.stream().map(this::quote).collect(Collectors.joining(", "));
    List<String> updates =
        columns.stream()
            .filter(column -> !keyColumns.contains(column))
            .map(column -> quote(column) + " = EXCLUDED." + quote(column))
            .toList();
    return insertSql(table, columns, placeholders)
        + " ON CONFLICT ("
        + keys
        + ")"
        + (updates.isEmpty() ? " DO NOTHING" : " DO UPDATE SET " + String.join(", ", updates));
  }

  @Override
  public String storedTypeSql(ColumnDefinition column) {
    return switch (column.type()) {
      case TEXT -> "varchar(" + column.length() + ")";
      case LONG_TEXT -> "text";
      case INTEGER -> "integer";
      case BIGINT -> "bigint";
      case TIMESTAMP_UTC -> "timestamptz(6)";
    };
  }

  @Override
  public ColumnType storedColumnType(StoredType type) {
    return ColumnType.of(
        switch (type) {
          case TEXT -> "varchar";
          case LONG_TEXT -> "text";
          case INTEGER -> "int4";
          case BIGINT -> "int8";
          case TIMESTAMP_UTC -> "timestamptz";
        });
  }

  private static boolean isCharacterType(ColumnType type) {
    return switch (type.typeName()) {
      case "bpchar", "varchar", "text", "name", "citext" -> true;
      default -> false;
    };
  }
}
