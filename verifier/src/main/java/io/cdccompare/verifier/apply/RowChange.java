package io.cdccompare.verifier.apply;

import io.cdccompare.jdbc.sql.TableRef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One change to apply to a target table, neutral of Kafka and Debezium: write the row image of a
 * key ({@link Operation#UPSERT}) or remove the key ({@link Operation#DELETE}).
 *
 * @param table the target table
 * @param key the canonical key encoding ({@code KeyCodec}) of the row, as in the record key
 * @param values for an UPSERT, target column name → Java value as {@code EventValues.toJava} gives
 *     it ({@code null} for SQL NULL), every key column included; empty for a DELETE
 * @param position where the change was read, for the checkpoint and for error messages
 */
public record RowChange(
    TableRef table,
    Operation operation,
    String key,
    Map<String, Object> values,
    RecordPosition position) {

  public enum Operation {
    UPSERT,
    DELETE
  }

  public RowChange {
    if (table == null || operation == null || key == null || position == null) {
      throw new IllegalArgumentException("a change needs a table, an operation, a key, a position");
    }
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    if (operation == Operation.UPSERT && values.isEmpty()) {
      throw new IllegalArgumentException("an UPSERT at " + position + " has no values");
    }
    if (operation == Operation.DELETE && !values.isEmpty()) {
      throw new IllegalArgumentException("a DELETE at " + position + " carries no values");
    }
  }

  public static RowChange upsert(
      TableRef table, String key, Map<String, Object> values, RecordPosition position) {
    return new RowChange(table, Operation.UPSERT, key, values, position);
  }

  public static RowChange delete(TableRef table, String key, RecordPosition position) {
    return new RowChange(table, Operation.DELETE, key, Map.of(), position);
  }
}
