package io.cdccompare.jdbc;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.UUID;

/**
 * One column of the parity tables: its DDL type on each database and how a logical value is written
 * into each (the way an apply would bind it).
 */
record ParityColumn(String name, String postgresType, String mariaDbType, Write write) {

  /** How a value is written. */
  enum Write {
    PLAIN,
    /** PostgreSQL infers the type from text (json, jsonb, time given as text). */
    UNTYPED_TEXT,
    UUID_NATIVE,
    /** MariaDB CHAR(36): every other UUID written in upper case. */
    UUID_CHAR,
    /** MariaDB TIMESTAMP: FROM_UNIXTIME(epoch seconds), exact whatever the session time zone. */
    INSTANT_TIMESTAMP,
    /** MariaDB DATETIME holding UTC for a source timestamptz. */
    INSTANT_UTC_DATETIME
  }

  String postgresPlaceholder() {
    return "?";
  }

  String mariaDbPlaceholder() {
    return write == Write.INSTANT_TIMESTAMP ? "FROM_UNIXTIME(?)" : "?";
  }

  void bindPostgres(PreparedStatement statement, int index, Object value) throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.OTHER);
    } else if (write == Write.UNTYPED_TEXT) {
      statement.setObject(index, value, Types.OTHER);
    } else if (value instanceof Instant instant) {
      statement.setObject(index, instant.atOffset(ZoneOffset.UTC));
    } else {
      statement.setObject(index, value);
    }
  }

  void bindMariaDb(PreparedStatement statement, int index, Object value, long rowId)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.NULL);
      return;
    }
    switch (write) {
      case UUID_NATIVE -> statement.setString(index, value.toString());
      case UUID_CHAR -> {
        String text = value.toString();
        statement.setString(index, rowId % 2 == 0 ? text.toUpperCase(Locale.ROOT) : text);
      }
      case INSTANT_TIMESTAMP -> {
        Instant instant = (Instant) value;
        statement.setBigDecimal(
            index,
            BigDecimal.valueOf(instant.getEpochSecond())
                .add(BigDecimal.valueOf(instant.getNano(), 9)));
      }
      case INSTANT_UTC_DATETIME ->
          statement.setObject(
              index, OffsetDateTime.ofInstant((Instant) value, ZoneOffset.UTC).toLocalDateTime());
      default -> {
        if (value instanceof UUID) {
          statement.setString(index, value.toString());
        } else {
          statement.setObject(index, value);
        }
      }
    }
  }
}
