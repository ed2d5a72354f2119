package io.cdccompare.core.key;

import io.cdccompare.core.rowhash.CanonicalTextParser;
import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.TypeFamily;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The canonical text of one key value and its way back to a value to bind. It is the row hash's
 * canonical text ({@link CanonicalValues}) with one difference: character values are kept exactly,
 * trailing blanks included, because a key must find its row again ({@code 'a '} and {@code 'a'} are
 * two keys of a PostgreSQL {@code varchar}). Thread-safe.
 */
public final class KeyText {

  private KeyText() {}

  /** The canonical key text of a non-null value. */
  public static String of(LogicalType type, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("a key value is never NULL");
    }
    if (type.family() == TypeFamily.TEXT) {
      if (value instanceof String text) {
        return text;
      }
      throw new IllegalArgumentException(
          "a " + type + " key value cannot be read from a " + value.getClass().getName());
    }
    return CanonicalValues.canonical(type, value);
  }

  /**
   * The value to bind for a canonical key text:
   *
   * <ul>
   *   <li>SMALLINT, INTEGER, BIGINT: Long, or BigDecimal beyond the range of a long (MariaDB {@code
   *       BIGINT UNSIGNED});
   *   <li>DECIMAL: BigDecimal; REAL: Float; DOUBLE: Double;
   *   <li>BOOLEAN: Boolean for {@code 1}/{@code 0}, else the Long a {@code tinyint(1)} held;
   *   <li>CHAR, VARCHAR, TEXT: String; BINARY: byte[];
   *   <li>UUID: UUID, or the String when the key text is not a UUID;
   *   <li>DATE: LocalDate; TIMESTAMP: LocalDateTime; TIMESTAMP_TZ: OffsetDateTime in UTC ({@code
   *       MAX}/{@code MIN} for {@code Infinity}/{@code -Infinity});
   *   <li>TIME: LocalTime within a day, else the canonical String ({@code 24:00:00}, a MariaDB
   *       duration).
   * </ul>
   */
  public static Object toBindValue(LogicalType type, String text) {
    return switch (type) {
      case SMALLINT, INTEGER, BIGINT -> integer(text);
      case DECIMAL -> decimal(text);
      case REAL -> Float.parseFloat(text);
      case DOUBLE -> Double.parseDouble(text);
      case BOOLEAN ->
          text.equals("1") ? Boolean.TRUE : text.equals("0") ? Boolean.FALSE : integer(text);
      case CHAR, VARCHAR, TEXT -> text;
      case BINARY -> HexFormat.of().parseHex(text);
      case UUID -> uuid(text);
      case JSON -> throw new IllegalArgumentException("a JSON column cannot be part of a key");
      case DATE ->
          text.equals("Infinity")
              ? LocalDate.MAX
              : text.equals("-Infinity") ? LocalDate.MIN : CanonicalTextParser.date(text);
      case TIME -> time(text);
      case TIMESTAMP ->
          text.equals("Infinity")
              ? LocalDateTime.MAX
              : text.equals("-Infinity") ? LocalDateTime.MIN : CanonicalTextParser.timestamp(text);
      case TIMESTAMP_TZ -> timestampTz(text);
    };
  }

  private static Object integer(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return new BigDecimal(text);
    }
  }

  private static BigDecimal decimal(String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("decimal key '" + text + "' cannot be bound", e);
    }
  }

  private static Object uuid(String text) {
    return text.length() == 36 && text.charAt(8) == '-' ? parseUuidOrText(text) : text;
  }

  private static Object parseUuidOrText(String text) {
    try {
      UUID uuid = UUID.fromString(text);
      return uuid.toString().equals(text) ? uuid : text;
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  private static Object time(String text) {
    Duration duration = CanonicalTextParser.time(text);
    if (duration.isNegative() || duration.compareTo(Duration.ofDays(1)) >= 0) {
      return text;
    }
    return LocalTime.ofNanoOfDay(duration.toNanos());
  }

  private static OffsetDateTime timestampTz(String text) {
    if (text.equals("Infinity")) {
      return OffsetDateTime.MAX;
    }
    if (text.equals("-Infinity")) {
      return OffsetDateTime.MIN;
    }
    return CanonicalTextParser.timestamp(text).atOffset(ZoneOffset.UTC);
  }
}
