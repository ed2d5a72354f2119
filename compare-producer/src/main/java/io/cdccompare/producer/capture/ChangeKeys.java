package io.cdccompare.producer.capture;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * The canonical key encoding of a change, from the key {@link Struct} Debezium delivers with the
 * settings the capture pins ({@code decimal.handling.mode=precise}, {@code
 * time.precision.mode=adaptive_time_microseconds}, {@code binary.handling.mode=bytes}). The compare
 * producer encodes the same key from JDBC values with the same {@link KeyCodec}, so both place a
 * key in the same partition.
 */
final class ChangeKeys {
  private ChangeKeys() {}

  /** Encodes the key struct of a change. */
  static String encode(Struct key) {
    List<LogicalType> types = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (Field field : key.schema().fields()) {
      Object raw = key.get(field);
      types.add(logicalType(field.schema()));
      values.add(javaValue(field.schema(), raw));
    }
    return new KeyCodec(types).encode(values);
  }

  static LogicalType logicalType(Schema schema) {
    String name = schema.name() == null ? "" : schema.name();
    switch (name) {
      case "org.apache.kafka.connect.data.Decimal", "io.debezium.data.VariableScaleDecimal":
        return LogicalType.DECIMAL;
      case "io.debezium.data.Uuid":
        return LogicalType.UUID;
      case "io.debezium.time.Date", "org.apache.kafka.connect.data.Date":
        return LogicalType.DATE;
      case "io.debezium.time.MicroTime", "io.debezium.time.Time", "io.debezium.time.NanoTime":
        return LogicalType.TIME;
      case "io.debezium.time.MicroTimestamp",
      "io.debezium.time.Timestamp",
      "io.debezium.time.NanoTimestamp":
        return LogicalType.TIMESTAMP;
      case "io.debezium.time.ZonedTimestamp":
        return LogicalType.TIMESTAMP_TZ;
      default:
        break;
    }
    return switch (schema.type()) {
      case INT8, INT16 -> LogicalType.SMALLINT;
      case INT32 -> LogicalType.INTEGER;
      case INT64 -> LogicalType.BIGINT;
      case FLOAT32 -> LogicalType.REAL;
      case FLOAT64 -> LogicalType.DOUBLE;
      case BOOLEAN -> LogicalType.BOOLEAN;
      case STRING -> LogicalType.TEXT;
      case BYTES -> LogicalType.BINARY;
      default ->
          throw new IllegalArgumentException(
              "key column type " + schema.type() + " (" + name + ") cannot be part of a key");
    };
  }

  static Object javaValue(Schema schema, Object raw) {
    if (raw == null) {
      return null;
    }
    String name = schema.name() == null ? "" : schema.name();
    return switch (name) {
      case "io.debezium.time.Date" -> LocalDate.ofEpochDay(((Number) raw).longValue());
      case "io.debezium.time.MicroTime" ->
          LocalTime.ofNanoOfDay(((Number) raw).longValue() * 1_000);
      case "io.debezium.time.Time" -> LocalTime.ofNanoOfDay(((Number) raw).longValue() * 1_000_000);
      case "io.debezium.time.NanoTime" -> LocalTime.ofNanoOfDay(((Number) raw).longValue());
      case "io.debezium.time.MicroTimestamp" -> fromEpoch(((Number) raw).longValue(), 1_000_000);
      case "io.debezium.time.Timestamp" -> fromEpoch(((Number) raw).longValue(), 1_000);
      case "io.debezium.time.NanoTimestamp" -> fromEpoch(((Number) raw).longValue(), 1_000_000_000);
      case "io.debezium.time.ZonedTimestamp" ->
          OffsetDateTime.parse((String) raw).withOffsetSameInstant(ZoneOffset.UTC);
      default -> raw instanceof ByteBuffer buffer ? bytes(buffer) : raw;
    };
  }

  private static LocalDateTime fromEpoch(long value, long perSecond) {
    long seconds = Math.floorDiv(value, perSecond);
    long fraction = Math.floorMod(value, perSecond);
    long nanos = fraction * (1_000_000_000L / perSecond);
    return LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), ZoneOffset.UTC);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] out = new byte[copy.remaining()];
    copy.get(out);
    return out;
  }
}
