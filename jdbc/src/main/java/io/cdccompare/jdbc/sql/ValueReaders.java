package io.cdccompare.jdbc.sql;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.UUID;

/** The readers the dialects pick from, one per way a driver hands a value over. */
final class ValueReaders {

  private ValueReaders() {}

  static final ValueReader LONG =
      (row, column) -> {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
      };

  /** Integers beyond a long (MariaDB {@code BIGINT UNSIGNED}) and exact decimals. */
  static final ValueReader BIG_DECIMAL = ResultSet::getBigDecimal;

  /** PostgreSQL {@code numeric}, which may hold {@code NaN} and {@code ±Infinity}. */
  static final ValueReader PG_NUMERIC =
      (row, column) -> {
        String text = row.getString(column);
        if (text == null) {
          return null;
        }
        char first = text.charAt(0);
        return first == 'N' || first == 'I' || text.startsWith("-I") ? text : new BigDecimal(text);
      };

  static final ValueReader FLOAT =
      (row, column) -> {
        float value = row.getFloat(column);
        return row.wasNull() ? null : value;
      };

  static final ValueReader DOUBLE =
      (row, column) -> {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
      };

  static final ValueReader BOOLEAN =
      (row, column) -> {
        boolean value = row.getBoolean(column);
        return row.wasNull() ? null : value;
      };

  /** A MariaDB {@code TINYINT(1)}: its number, so that 5 is not taken for true. */
  static final ValueReader TINYINT_AS_BOOLEAN =
      (row, column) -> {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
      };

  static final ValueReader STRING = ResultSet::getString;

  static final ValueReader BYTES = ResultSet::getBytes;

  static final ValueReader UUID_OBJECT = (row, column) -> row.getObject(column, UUID.class);

  static final ValueReader LOCAL_DATE = (row, column) -> row.getObject(column, LocalDate.class);

  static final ValueReader LOCAL_DATE_TIME =
      (row, column) -> row.getObject(column, LocalDateTime.class);

  static final ValueReader OFFSET_DATE_TIME =
      (row, column) -> row.getObject(column, OffsetDateTime.class);

  /** Seconds since the epoch with a fraction (MariaDB {@code UNIX_TIMESTAMP(col)}). */
  static final ValueReader EPOCH_SECONDS =
      (row, column) -> {
        BigDecimal seconds = row.getBigDecimal(column);
        if (seconds == null) {
          return null;
        }
        long whole = seconds.longValue();
        int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
        return Instant.ofEpochSecond(whole, nanos);
      };
}
