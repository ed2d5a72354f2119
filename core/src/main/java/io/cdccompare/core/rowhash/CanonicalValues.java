package io.cdccompare.core.rowhash;

/**
 * The canonical text of one value of a given {@link LogicalType} (docs/design.md, "Row hash"), the
 * same whatever database or change event the value came from. See {@code docs/row-hash.md} for the
 * rules of every type.
 *
 * <p>Each type accepts the Java values that JDBC drivers and Kafka Connect deliver for it:
 *
 * <table>
 *   <caption>accepted Java values</caption>
 *   <tr><th>type</th><th>Java values</th></tr>
 *   <tr><td>SMALLINT, INTEGER, BIGINT</td><td>Byte, Short, Integer, Long, BigInteger,
 *       BigDecimal</td></tr>
 *   <tr><td>DECIMAL</td><td>BigDecimal, Short, Integer, Long, BigInteger, String (also
 *       {@code NaN}, {@code Infinity}, {@code -Infinity})</td></tr>
 *   <tr><td>REAL</td><td>Float, Double (narrowed to float)</td></tr>
 *   <tr><td>DOUBLE</td><td>Double, Float</td></tr>
 *   <tr><td>BOOLEAN</td><td>Boolean, an integer number (tinyint(1))</td></tr>
 *   <tr><td>CHAR, VARCHAR, TEXT</td><td>String</td></tr>
 *   <tr><td>BINARY</td><td>byte[], ByteBuffer</td></tr>
 *   <tr><td>UUID</td><td>UUID, String, byte[16]</td></tr>
 *   <tr><td>JSON</td><td>String</td></tr>
 *   <tr><td>DATE</td><td>LocalDate</td></tr>
 *   <tr><td>TIME</td><td>LocalTime, Duration, String</td></tr>
 *   <tr><td>TIMESTAMP</td><td>LocalDateTime</td></tr>
 *   <tr><td>TIMESTAMP_TZ</td><td>Instant, OffsetDateTime, ZonedDateTime, LocalDateTime (UTC)</td></tr>
 * </table>
 *
 * Any other Java type is refused with an {@link IllegalArgumentException}: it means an adapter read
 * the column the wrong way, which must not pass silently. Stateless and thread-safe.
 */
public final class CanonicalValues {

  private CanonicalValues() {}

  /**
   * Returns the canonical text of {@code value}, or {@code null} for SQL NULL. The text may be
   * empty (an empty or all-blank string, an empty byte string); how NULL and empty are finally
   * written depends on the {@link CanonicalFormat}.
   */
  public static String canonical(LogicalType type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case SMALLINT, INTEGER, BIGINT -> NumericText.integer(value);
      case DECIMAL -> NumericText.decimal(value);
      case REAL -> NumericText.real(value);
      case DOUBLE -> NumericText.doublePrecision(value);
      case BOOLEAN -> NumericText.bool(value);
      case CHAR, VARCHAR, TEXT -> TextValues.text(value);
      case BINARY -> TextValues.binary(value);
      case UUID -> TextValues.uuid(value);
      case JSON -> CanonicalJson.of(value);
      case DATE -> TemporalText.date(value);
      case TIME -> TemporalText.time(value);
      case TIMESTAMP -> TemporalText.timestamp(value);
      case TIMESTAMP_TZ -> TemporalText.timestampTz(value);
    };
  }

  /**
   * Appends the canonical text of a non-null value to {@code out}, without the intermediate strings
   * of {@link #canonical} for the common JDBC types; same text.
   */
  static void appendTo(LogicalType type, Object value, StringBuilder out) {
    switch (type) {
      case SMALLINT, INTEGER, BIGINT -> {
        if (value instanceof Long || value instanceof Integer || value instanceof Short) {
          out.append(((Number) value).longValue());
        } else {
          out.append(NumericText.integer(value));
        }
      }
      case DECIMAL -> {
        if (value instanceof java.math.BigDecimal decimal) {
          NumericText.appendDecimal(decimal, out);
        } else {
          out.append(NumericText.decimal(value));
        }
      }
      case DOUBLE -> {
        if (value instanceof Double d) {
          ShortestDecimal.append(d.doubleValue(), out);
        } else {
          out.append(NumericText.doublePrecision(value));
        }
      }
      case TIMESTAMP -> {
        if (value instanceof java.time.LocalDateTime dateTime) {
          TemporalText.appendTimestamp(dateTime, out);
        } else {
          out.append(TemporalText.timestamp(value));
        }
      }
      case TIMESTAMP_TZ -> TemporalText.appendTimestampTz(value, out);
      default -> out.append(canonical(type, value));
    }
  }

  static IllegalArgumentException unsupported(LogicalType type, Object value) {
    return new IllegalArgumentException(
        "a " + type + " value cannot be read from a " + value.getClass().getName());
  }
}
