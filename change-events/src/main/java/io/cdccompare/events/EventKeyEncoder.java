package io.cdccompare.events;

import io.cdccompare.core.key.KeyCodec;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Encodes the key struct of a change event with a {@link KeyCodec}: the same text as the key of the
 * same row read over JDBC, so that a row's changes and its hash records land under one Kafka record
 * key. Immutable and thread-safe.
 */
public final class EventKeyEncoder {

  private final KeyCodec codec;
  private final List<String> keyColumns;

  /**
   * @param keyColumns the key's column names, in key order
   */
  public EventKeyEncoder(KeyCodec codec, List<String> keyColumns) {
    if (keyColumns.size() != codec.keyTypes().size()) {
      throw new IllegalArgumentException("one key column per key type");
    }
    this.codec = codec;
    this.keyColumns = List.copyOf(keyColumns);
  }

  public String encode(Struct key) {
    List<Object> values = new ArrayList<>(keyColumns.size());
    for (int i = 0; i < keyColumns.size(); i++) {
      Field field = key.schema().field(keyColumns.get(i));
      if (field == null) {
        throw new IllegalArgumentException(
            "the key struct has no field '" + keyColumns.get(i) + "'");
      }
      EventCanonicalValues.requireExactEncoding(codec.keyTypes().get(i), field.schema());
      values.add(EventValues.toJava(field.schema(), key.get(field)));
    }
    return codec.encode(values);
  }
}
