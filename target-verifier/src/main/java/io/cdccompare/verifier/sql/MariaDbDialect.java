package io.cdccompare.verifier.sql;

import io.cdccompare.core.rowhash.LogicalType;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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
