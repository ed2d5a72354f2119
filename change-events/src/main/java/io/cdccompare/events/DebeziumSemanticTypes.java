package io.cdccompare.events;

/**
 * The schema names by which Debezium marks the meaning of a Connect field, matched as strings so
 * that this module does not depend on Debezium. Kafka Connect's own logical types ({@code
 * org.apache.kafka.connect.data.Decimal}, {@code Date}, {@code Time}, {@code Timestamp}) are
 * matched through their {@code LOGICAL_NAME} constants.
 */
public final class DebeziumSemanticTypes {

  /** INT32, days since 1970-01-01. */
  public static final String DATE = "io.debezium.time.Date";

  /** INT32, milliseconds since midnight ({@code time.precision.mode=adaptive}, precision ≤ 3). */
  public static final String TIME = "io.debezium.time.Time";

  /** INT64, microseconds since midnight; MySQL/MariaDB durations may be negative or over 24 h. */
  public static final String MICRO_TIME = "io.debezium.time.MicroTime";

  /** INT64, nanoseconds since midnight. */
  public static final String NANO_TIME = "io.debezium.time.NanoTime";

  /** INT64, milliseconds since the epoch of a wall-clock timestamp taken as UTC. */
  public static final String TIMESTAMP = "io.debezium.time.Timestamp";

  /** INT64, microseconds since the epoch of a wall-clock timestamp taken as UTC. */
  public static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";

  /** INT64, nanoseconds since the epoch of a wall-clock timestamp taken as UTC. */
  public static final String NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";

  /** STRING, ISO-8601 with offset (Debezium writes UTC, e.g. {@code 2024-01-01T10:00:00.5Z}). */
  public static final String ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";

  /** STRUCT {@code scale} INT32 + {@code value} BYTES (big-endian two's complement unscaled). */
  public static final String VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";

  /** STRING, a UUID. */
  public static final String UUID = "io.debezium.data.Uuid";

  /** STRING, a JSON document as the database wrote it. */
  public static final String JSON = "io.debezium.data.Json";

  /** STRING, an XML document (compared as text). */
  public static final String XML = "io.debezium.data.Xml";

  /** STRING, an enum label (compared as text). */
  public static final String ENUM = "io.debezium.data.Enum";

  private DebeziumSemanticTypes() {}
}
