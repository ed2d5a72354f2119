package io.cdccompare.events;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Turns a field value of a Debezium change event (Kafka Connect data) into the Java value that the
 * JDBC path reads for the same column, so that both give the same canonical text and so that the
 * apply can bind it: {@code MicroTimestamp} → {@code LocalDateTime}, {@code ZonedTimestamp} →
 * {@code OffsetDateTime} in UTC, {@code MicroTime} → {@code Duration} since midnight, {@code
 * VariableScaleDecimal} → {@code BigDecimal}, {@code BYTES} → {@code byte[]}, and so on. Plain
 * Connect values (numbers, booleans, strings) pass through. Stateless and thread-safe.
 */
public final class EventValues {

  private static final long MILLIS_PER_DAY = 86_400_000L;

  private EventValues() {}

  /**
   * @param schema the field's schema
   * @param value the field's value, {@code null} for SQL NULL
   * @throws IllegalArgumentException for a schema this module does not understand, naming it
   */
  public static Object toJava(Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    String name = schema.name();
    if (name != null) {
      Object semantic = semantic(name, value);
      if (semantic != null) {
        return semantic;
      }
    }
    return switch (schema.type()) {
      case INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING -> value;
      case BYTES -> bytes(value);
      default ->
          throw new IllegalArgumentException(
              "a change event field of schema "
                  + schema.type()
                  + (name == null ? "" : " (" + name + ")")
                  + " cannot be compared");
    };
  }

  /** The Java value of a semantic type, or null if {@code name} is none this module knows. */
  private static Object semantic(String name, Object value) {
    return switch (name) {
      case Decimal.LOGICAL_NAME -> value;
      case Date.LOGICAL_NAME ->
          LocalDate.ofEpochDay(Math.floorDiv(((java.util.Date) value).getTime(), MILLIS_PER_DAY));
      case Time.LOGICAL_NAME ->
          Duration.ofMillis(Math.floorMod(((java.util.Date) value).getTime(), MILLIS_PER_DAY));
      case Timestamp.LOGICAL_NAME -> epochNanos(((java.util.Date) value).getTime(), 1_000_000);
      case DebeziumSemanticTypes.DATE -> LocalDate.ofEpochDay(((Number) value).longValue());
      case DebeziumSemanticTypes.TIME -> Duration.ofMillis(((Number) value).longValue());
      case DebeziumSemanticTypes.MICRO_TIME ->
          Duration.ofNanos(Math.multiplyExact(((Number) value).longValue(), 1_000L));
      case DebeziumSemanticTypes.NANO_TIME -> Duration.ofNanos(((Number) value).longValue());
      case DebeziumSemanticTypes.TIMESTAMP -> epochNanos(((Number) value).longValue(), 1_000_000);
      case DebeziumSemanticTypes.MICRO_TIMESTAMP -> epochNanos(((Number) value).longValue(), 1_000);
      case DebeziumSemanticTypes.NANO_TIMESTAMP -> epochNanos(((Number) value).longValue(), 1);
      case DebeziumSemanticTypes.ZONED_TIMESTAMP -> zonedTimestamp((String) value);
      case DebeziumSemanticTypes.VARIABLE_SCALE_DECIMAL -> variableScaleDecimal((Struct) value);
      default -> null;
    };
  }

  /** A wall-clock timestamp given as units since the epoch, UTC. */
  private static LocalDateTime epochNanos(long units, long nanosPerUnit) {
    long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
    long seconds = Math.floorDiv(units, unitsPerSecond);
    long nanos = Math.floorMod(units, unitsPerSecond) * nanosPerUnit;
    return LocalDateTime.ofEpochSecond(seconds, (int) nanos, ZoneOffset.UTC);
  }

  private static OffsetDateTime zonedTimestamp(String text) {
    switch (text.strip()) {
      case "infinity":
        return OffsetDateTime.MAX;
      case "-infinity":
        return OffsetDateTime.MIN;
      default:
        try {
          return OffsetDateTime.parse(text.strip()).withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException("not a ZonedTimestamp: '" + text + "'", e);
        }
    }
  }

  private static BigDecimal variableScaleDecimal(Struct struct) {
    int scale = struct.getInt32("scale");
    byte[] unscaled = bytes(struct.get("value"));
    return new BigDecimal(new BigInteger(unscaled), scale);
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.slice();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      return bytes;
    }
    throw new IllegalArgumentException("a BYTES field holds a " + value.getClass().getName());
  }
}
