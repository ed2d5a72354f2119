package io.cdccompare.events;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Debezium connector settings under which a change event's values have exactly the canonical
 * text of the same values read over JDBC. The capture sets them; {@link #requirePinned} refuses a
 * configuration that overrides one of them with a lossy value, naming the key.
 *
 * <ul>
 *   <li>{@code decimal.handling.mode=string}: the only mode that carries PostgreSQL {@code numeric}
 *       {@code NaN} and {@code ±Infinity} (and any scale) exactly; {@code precise} is also
 *       understood (Connect {@code Decimal} and {@code VariableScaleDecimal}) but cannot carry the
 *       special values; {@code double} loses digits and is refused.
 *   <li>{@code time.precision.mode=adaptive_time_microseconds}: times as {@code MicroTime}
 *       (PostgreSQL {@code 24:00:00} and MariaDB durations survive), timestamps as {@code
 *       Timestamp}/{@code MicroTimestamp} by column precision; {@code connect} truncates to
 *       milliseconds and is refused.
 *   <li>{@code binary.handling.mode=bytes}: {@code bytea}/{@code BLOB} as Connect {@code BYTES};
 *       {@code base64}/{@code hex} strings cannot be told from text and are refused.
 *   <li>{@code bigint.unsigned.handling.mode=precise} (MySQL/MariaDB): {@code BIGINT UNSIGNED} as a
 *       {@code Decimal} instead of a wrapped-around {@code long}.
 * </ul>
 *
 * Timestamps with time zone ({@code timestamptz}, MariaDB {@code TIMESTAMP}) arrive as {@code
 * ZonedTimestamp} strings in UTC, which need no setting.
 */
public final class DebeziumSettings {

  public static final String DECIMAL_HANDLING_MODE = "decimal.handling.mode";
  public static final String TIME_PRECISION_MODE = "time.precision.mode";
  public static final String BINARY_HANDLING_MODE = "binary.handling.mode";
  public static final String BIGINT_UNSIGNED_HANDLING_MODE = "bigint.unsigned.handling.mode";

  /** The values the capture sets, in a stable order. */
  public static final Map<String, String> PINNED;

  static {
    Map<String, String> pinned = new LinkedHashMap<>();
    pinned.put(DECIMAL_HANDLING_MODE, "string");
    pinned.put(TIME_PRECISION_MODE, "adaptive_time_microseconds");
    pinned.put(BINARY_HANDLING_MODE, "bytes");
    pinned.put(BIGINT_UNSIGNED_HANDLING_MODE, "precise");
    PINNED = Map.copyOf(pinned);
  }

  private static final Map<String, java.util.Set<String>> ACCEPTED =
      Map.of(
          DECIMAL_HANDLING_MODE, java.util.Set.of("string", "precise"),
          TIME_PRECISION_MODE, java.util.Set.of("adaptive_time_microseconds", "adaptive"),
          BINARY_HANDLING_MODE, java.util.Set.of("bytes"),
          BIGINT_UNSIGNED_HANDLING_MODE, java.util.Set.of("precise"));

  private DebeziumSettings() {}

  /**
   * {@code connectorConfig} with the pinned settings added where absent.
   *
   * @throws IllegalArgumentException naming the key when a value is set that loses precision
   */
  public static Map<String, String> withPinned(Map<String, String> connectorConfig) {
    requirePinned(connectorConfig);
    Map<String, String> result = new LinkedHashMap<>(connectorConfig);
    PINNED.forEach(result::putIfAbsent);
    return result;
  }

  /**
   * Refuses a connector configuration that sets one of the pinned keys to a value under which event
   * values and JDBC values would not have the same canonical text. Absent keys are fine here: see
   * {@link #withPinned}.
   */
  public static void requirePinned(Map<String, String> connectorConfig) {
    ACCEPTED.forEach(
        (key, accepted) -> {
          String value = connectorConfig.get(key);
          if (value != null
              && !accepted.contains(value.strip().toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException(
                key
                    + " must be "
                    + PINNED.get(key)
                    + " (row hashes need exact values), was '"
                    + value
                    + "'");
          }
        });
  }
}
