package io.cdccompare.jdbc.sql;

import io.cdccompare.core.rowhash.LogicalType;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * MariaDB (and MySQL): types by MariaDB Connector/J's names ({@code INTEGER UNSIGNED}, {@code
 * BOOLEAN} for a {@code TINYINT(1)}, {@code BIT}, {@code JSON}, {@code uuid}, {@code DATETIME}...).
 *
 * <ul>
 *   <li>{@code TIMESTAMP} is selected as {@code UNIX_TIMESTAMP(col)}: MariaDB shows a {@code
 *       TIMESTAMP} in the session's {@code time_zone}, but {@code UNIX_TIMESTAMP} of a {@code
 *       TIMESTAMP} column returns the stored UTC value directly, so the instant is the same
 *       whatever the session time zone (even in a repeated daylight-saving hour). Keys are bound as
 *       {@code FROM_UNIXTIME(?)}, which is exact in a session at a fixed offset; the verifier's own
 *       sessions use {@code +00:00}.
 *   <li>{@code FLOAT} is selected as {@code CAST(col AS DOUBLE)}: the text protocol writes a {@code
 *       FLOAT} with 6 significant digits ({@code 1.2345678} comes back {@code 1.23457}); the
 *       widened double is exact and narrows back to the stored float.
 *   <li>{@code TINYINT(1)} is read as its number, so a 5 stays 5 instead of passing for true.
 *   <li>{@code TIME} is read as text: it is a duration from {@code -838:59:59} to {@code
 *       838:59:59}.
 *   <li>{@code DATETIME} is a {@code TIMESTAMP} logically; when it stands in for a source {@code
 *       timestamptz} (declared {@code TIMESTAMP_TZ}), it must hold UTC.
 * </ul>
 */
public final class MariaDbDialect implements Dialect {

  private static final long TIMESTAMP_MIN_SECONDS = 1;
  private static final long TIMESTAMP_MAX_SECONDS = Integer.MAX_VALUE;

  /** MariaDB uses no index for a row-value inequality: key bounds are expanded. */
  @Override
  public boolean rangesByRowValue() {
    return false;
  }

  @Override
  public String name() {
    return "mariadb";
  }

  @Override
  public String quote(String identifier) {
    return '`' + identifier.replace("`", "``") + '`';
  }

  @Override
  public ColumnAccess access(String column, ColumnType type) {
    String base = type.baseName();
    return switch (base) {
      case "tinyint", "smallint", "year" ->
          ColumnAccess.plain(LogicalType.SMALLINT, ValueReaders.LONG);
      case "mediumint", "int", "integer" ->
          ColumnAccess.plain(
              type.isUnsigned() ? LogicalType.BIGINT : LogicalType.INTEGER, ValueReaders.LONG);
      case "bigint" ->
          type.isUnsigned()
              ? ColumnAccess.plain(LogicalType.BIGINT, ValueReaders.BIG_DECIMAL)
              : ColumnAccess.plain(LogicalType.BIGINT, ValueReaders.LONG);
      case "decimal", "numeric" ->
          ColumnAccess.plain(LogicalType.DECIMAL, ValueReaders.BIG_DECIMAL);
      case "float" ->
          new ColumnAccess(LogicalType.REAL, "CAST(%s AS DOUBLE)", ValueReaders.DOUBLE, "?");
      case "double", "double precision", "real" ->
          ColumnAccess.plain(LogicalType.DOUBLE, ValueReaders.DOUBLE);
      case "boolean", "bool" ->
          ColumnAccess.plain(LogicalType.BOOLEAN, ValueReaders.TINYINT_AS_BOOLEAN);
      case "bit" -> bit(column, type);
      case "char" -> ColumnAccess.plain(LogicalType.CHAR, ValueReaders.STRING);
      case "varchar", "enum", "set" -> ColumnAccess.plain(LogicalType.VARCHAR, ValueReaders.STRING);
      case "tinytext", "text", "mediumtext", "longtext" ->
          ColumnAccess.plain(LogicalType.TEXT, ValueReaders.STRING);
      case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" ->
          ColumnAccess.plain(LogicalType.BINARY, ValueReaders.BYTES);
      case "uuid" -> ColumnAccess.plain(LogicalType.UUID, ValueReaders.STRING);
      case "json" -> ColumnAccess.plain(LogicalType.JSON, ValueReaders.STRING);
      case "date" -> ColumnAccess.plain(LogicalType.DATE, ValueReaders.LOCAL_DATE);
      case "time" -> ColumnAccess.plain(LogicalType.TIME, ValueReaders.STRING);
      case "datetime" -> ColumnAccess.plain(LogicalType.TIMESTAMP, ValueReaders.LOCAL_DATE_TIME);
      case "timestamp" ->
          new ColumnAccess(
              LogicalType.TIMESTAMP_TZ,
              "UNIX_TIMESTAMP(%s)",
              ValueReaders.EPOCH_SECONDS,
              "FROM_UNIXTIME(?)");
      default -> throw new UnsupportedColumnTypeException(name(), column, type);
    };
  }

  private ColumnAccess bit(String column, ColumnType type) {
    if (type.precision() > 1) {
      throw new UnsupportedColumnTypeException(name(), column, type);
    }
    return ColumnAccess.plain(LogicalType.BOOLEAN, ValueReaders.BOOLEAN);
  }

  @Override
  public void bind(PreparedStatement statement, int index, Object value, ColumnType type)
      throws SQLException {
    String base = type.baseName();
    if (base.equals("timestamp") && value instanceof OffsetDateTime instant) {
      statement.setBigDecimal(index, epochSeconds(instant.toInstant()));
    } else if (value instanceof OffsetDateTime utc) {
      statement.setObject(index, utc.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
    } else if (value instanceof UUID uuid) {
      if (base.endsWith("binary")) {
        statement.setBytes(index, uuidBytes(uuid));
      } else {
        statement.setString(index, uuid.toString());
      }
    } else {
      statement.setObject(index, value);
    }
  }

  /** A fixed UTC session: {@code FROM_UNIXTIME(?)} is exact only at a fixed offset. */
  @Override
  public List<String> sessionSetupSql() {
    return List.of("SET time_zone = '+00:00'");
  }

  /**
   * {@code max_statement_time} (seconds, with a fraction) bounds a statement; a lock wait has
   * limits of its own in whole seconds: {@code innodb_lock_wait_timeout} for row locks, {@code
   * lock_wait_timeout} for table (metadata) locks, whose default is a year.
   */
  @Override
  public List<String> statementTimeoutSql(java.time.Duration timeout) {
    long millis = Math.max(1, timeout.toMillis());
    long seconds = Math.max(1, (millis + 999) / 1000);
    return List.of(
        "SET SESSION max_statement_time = " + BigDecimal.valueOf(millis, 3),
        "SET SESSION innodb_lock_wait_timeout = " + seconds,
        "SET SESSION lock_wait_timeout = " + seconds);
  }

  /**
   * {@code INSERT … ON DUPLICATE KEY UPDATE c = VALUES(c)} for every other column. Like any MariaDB
   * upsert it fires on a conflict in any unique index, not only the primary key.
   */
  @Override
  public String upsertSql(
      TableRef table, List<String> columns, List<String> placeholders, List<String> keyColumns) {
    List<String> updates =
        columns.stream()
            .filter(column -> !keyColumns.contains(column))
            .map(column -> quote(column) + " = VALUES(" + quote(column) + ")")
            .toList();
    if (updates.isEmpty()) {
      String key = quote(keyColumns.get(0));
      updates = List.of(key + " = " + key);
    }
    return insertSql(table, columns, placeholders)
        + " ON DUPLICATE KEY UPDATE "
        + String.join(", ", updates);
  }

  @Override
  public String nullableSql() {
    return " NULL";
  }

  /** InnoDB, {@code utf8mb4} with the binary collation: text compared exactly, like PostgreSQL. */
  @Override
  public String tableOptionsSql() {
    return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
  }

  @Override
  public String storedTypeSql(ColumnDefinition column) {
    return switch (column.type()) {
      case TEXT -> "VARCHAR(" + column.length() + ")";
      case LONG_TEXT -> "LONGTEXT";
      case INTEGER -> "INT";
      case BIGINT -> "BIGINT";
      // DATETIME holding UTC: a TIMESTAMP would move with the session zone and end in 2038
      case TIMESTAMP_UTC -> "DATETIME(6)";
    };
  }

  @Override
  public ColumnType storedColumnType(StoredType type) {
    return ColumnType.of(
        switch (type) {
          case TEXT -> "varchar";
          case LONG_TEXT -> "longtext";
          case INTEGER -> "int";
          case BIGINT -> "bigint";
          case TIMESTAMP_UTC -> "datetime";
        });
  }

  /**
   * Refuses what MariaDB would silently turn into NULL or a truncated value: an instant outside the
   * {@code TIMESTAMP} range ({@code FROM_UNIXTIME} gives NULL), and the decimal specials {@code
   * NaN} and {@code ±Infinity}, which a {@code DECIMAL} cannot hold. A decimal given as text (the
   * capture's {@code decimal.handling.mode=string}) is bound as its {@code BigDecimal}.
   */
  @Override
  public void bindWrite(
      PreparedStatement statement, int index, String column, Object value, ColumnType type)
      throws SQLException {
    String base = type.baseName();
    Object normalized = value == null ? null : WriteValues.normalize(this, column, type, value);
    if (base.equals("timestamp") && normalized instanceof OffsetDateTime instant) {
      long seconds = instant.toEpochSecond();
      if (seconds < TIMESTAMP_MIN_SECONDS || seconds > TIMESTAMP_MAX_SECONDS) {
        throw new IllegalArgumentException(
            "column "
                + column
                + ": "
                + instant
                + " is outside the range of a MariaDB TIMESTAMP (1970-01-01 00:00:01 to"
                + " 2038-01-19 03:14:07 UTC)");
      }
    }
    if ((base.equals("decimal") || base.equals("numeric")) && normalized instanceof String text) {
      // the capture's decimal.handling.mode=string: a number as text; only NaN/±Infinity fail
      try {
        normalized = new BigDecimal(text);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "column " + column + ": a MariaDB " + base + " cannot hold '" + text + "'");
      }
    }
    Dialect.super.bindWrite(statement, index, column, normalized, type);
  }

  private static BigDecimal epochSeconds(Instant instant) {
    return BigDecimal.valueOf(instant.getEpochSecond())
        .add(BigDecimal.valueOf(instant.getNano(), 9))
        .stripTrailingZeros();
  }

  private static byte[] uuidBytes(UUID uuid) {
    return java.nio.ByteBuffer.allocate(16)
        .putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits())
        .array();
  }
}
