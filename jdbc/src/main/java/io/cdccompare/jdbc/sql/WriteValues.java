package io.cdccompare.jdbc.sql;

import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Brings a value from a change event (the Java values of {@code EventValues.toJava}) to the Java
 * type a dialect's {@link Dialect#bind} expects for the column's logical type: a time since
 * midnight becomes a {@link LocalTime} (or its canonical text outside a day: {@code 24:00:00}, a
 * MariaDB duration), a wall-clock timestamp meets a column holding instants as UTC and the other
 * way round. Everything else passes unchanged.
 */
final class WriteValues {

  private WriteValues() {}

  static Object normalize(Dialect dialect, String column, ColumnType type, Object value) {
    LogicalType logical;
    try {
      logical = dialect.access(column, type).defaultType();
    } catch (UnsupportedColumnTypeException e) {
      return value; // written as it comes: the column is not compared, only applied
    }
    return switch (logical) {
      case TIME -> time(value);
      case TIMESTAMP_TZ -> value instanceof LocalDateTime utc ? instant(utc) : value;
      case TIMESTAMP -> value instanceof OffsetDateTime instant ? wallClock(instant) : value;
      default -> value;
    };
  }

  /** A wall-clock timestamp of the source, which Debezium gives in UTC; infinities kept. */
  private static OffsetDateTime instant(LocalDateTime utc) {
    if (utc.equals(LocalDateTime.MAX)) {
      return OffsetDateTime.MAX;
    }
    if (utc.equals(LocalDateTime.MIN)) {
      return OffsetDateTime.MIN;
    }
    return utc.atOffset(ZoneOffset.UTC);
  }

  private static LocalDateTime wallClock(OffsetDateTime instant) {
    if (instant.equals(OffsetDateTime.MAX)) {
      return LocalDateTime.MAX;
    }
    if (instant.equals(OffsetDateTime.MIN)) {
      return LocalDateTime.MIN;
    }
    return instant.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
  }

  private static Object time(Object value) {
    if (!(value instanceof Duration duration)) {
      return value;
    }
    if (duration.isNegative() || duration.compareTo(Duration.ofDays(1)) >= 0) {
      return CanonicalValues.canonical(LogicalType.TIME, duration);
    }
    return LocalTime.ofNanoOfDay(duration.toNanos());
  }
}
