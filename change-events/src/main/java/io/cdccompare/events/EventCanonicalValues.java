package io.cdccompare.events;

import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.TypeFamily;
import org.apache.kafka.connect.data.Schema;

/**
 * The canonical text of a change event field, for a column of a given logical type: {@link
 * EventValues#toJava} then {@link CanonicalValues#canonical}. Refuses the encodings that the {@link
 * DebeziumSettings} rule out, because they would not give the JDBC path's text. Stateless and
 * thread-safe.
 */
public final class EventCanonicalValues {

  private EventCanonicalValues() {}

  /** The canonical text, {@code null} for SQL NULL. */
  public static String canonical(LogicalType type, Schema schema, Object value) {
    requireExactEncoding(type, schema);
    return CanonicalValues.canonical(type, EventValues.toJava(schema, value));
  }

  static void requireExactEncoding(LogicalType type, Schema schema) {
    Schema.Type encoding = schema.type();
    if (type.family() == TypeFamily.BINARY && encoding == Schema.Type.STRING) {
      throw new IllegalArgumentException(
          "binary values arrive as text: set "
              + DebeziumSettings.BINARY_HANDLING_MODE
              + "=bytes on the capture");
    }
    if (type == LogicalType.DECIMAL
        && (encoding == Schema.Type.FLOAT64 || encoding == Schema.Type.FLOAT32)) {
      throw new IllegalArgumentException(
          "decimals arrive as floating point: set "
              + DebeziumSettings.DECIMAL_HANDLING_MODE
              + "=string (or precise) on the capture");
    }
  }
}
