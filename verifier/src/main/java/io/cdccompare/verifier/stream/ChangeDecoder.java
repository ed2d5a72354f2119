package io.cdccompare.verifier.stream;

import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.events.EventValues;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Decodes a record of a table topic as the capture wrote it ({@code capture}'s {@code
 * ChangeRouter}): a marker (header {@code cdc.marker}, Avro {@code Marker} value), a tombstone
 * (null value) or a data change (key = canonical key encoding in UTF-8, value = Debezium JSON
 * envelope with schemas). Anything else is refused with an {@link IllegalArgumentException} saying
 * what is wrong; the caller names the record's position.
 *
 * <p>Not thread-safe (the JSON converter keeps a schema cache): one per processor.
 */
final class ChangeDecoder {

  private final Deserializer<Marker> markers;
  private final JsonConverter values = new JsonConverter();

  ChangeDecoder(Deserializer<Marker> markers) {
    this.markers = markers;
    values.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
  }

  /** The source position in the capture's headers, {@code null} when the record carries none. */
  static SourcePosition sourcePosition(Headers headers) {
    String commit = text(headers, ChangeHeaders.COMMIT_LSN);
    String lsn = text(headers, ChangeHeaders.LSN);
    if (commit == null || lsn == null) {
      return null;
    }
    String txId = text(headers, ChangeHeaders.TXID);
    try {
      return new SourcePosition(
          Long.parseLong(commit), Long.parseLong(lsn), txId == null ? 0 : Long.parseLong(txId));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "headers "
              + ChangeHeaders.COMMIT_LSN
              + "/"
              + ChangeHeaders.LSN
              + "/"
              + ChangeHeaders.TXID
              + " are no numbers");
    }
  }

  /**
   * @param table the target table the topic's changes are applied to
   * @param position where the record was read, with its source position
   */
  StreamRecord decode(
      TableRef table, RecordPosition position, Headers headers, byte[] key, byte[] value) {
    String phase = text(headers, Note.MARKER_HEADER);
    if (phase != null) {
      return note(position, phase, value);
    }
    if (key == null) {
      throw new IllegalArgumentException("a change record without a key");
    }
    String encodedKey = new String(key, StandardCharsets.UTF_8);
    if (value == null) {
      return new StreamRecord.Tombstone(encodedKey);
    }
    SchemaAndValue envelope = values.toConnectData(position.topic(), value);
    if (!(envelope.value() instanceof Struct struct)
        || struct.schema().field("op") == null
        || struct.schema().field("after") == null) {
      throw new IllegalArgumentException("the value is not a Debezium change envelope");
    }
    String op = struct.getString("op");
    return switch (op == null ? "" : op) {
      case "c", "u", "r" -> upsert(table, encodedKey, struct.getStruct("after"), position, op);
      case "d" -> new StreamRecord.Change(RowChange.delete(table, encodedKey, position));
      default -> throw new IllegalArgumentException("unknown change op '" + op + "'");
    };
  }

  private StreamRecord note(RecordPosition position, String phase, byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("a " + phase + " marker without a value");
    }
    Marker marker = markers.deserialize(position.topic(), value);
    if (!marker.getPhase().equals(MarkerPhase.valueOf(phase))) {
      throw new IllegalArgumentException(
          "marker header says " + phase + " but the marker is " + marker.getPhase());
    }
    if (marker.getPartition() != position.partition()) {
      throw new IllegalArgumentException(
          "the marker copy of partition " + marker.getPartition() + " is in the wrong partition");
    }
    return new StreamRecord.Note(marker);
  }

  private static StreamRecord upsert(
      TableRef table, String key, Struct after, RecordPosition position, String op) {
    if (after == null) {
      throw new IllegalArgumentException("a change of op '" + op + "' without an after image");
    }
    Map<String, Object> row = new LinkedHashMap<>();
    for (Field field : after.schema().fields()) {
      try {
        row.put(field.name(), EventValues.toJava(field.schema(), after.get(field)));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "column '" + field.name() + "' cannot be applied: " + e.getMessage(), e);
      }
    }
    return new StreamRecord.Change(RowChange.upsert(table, key, row, position));
  }

  private static String text(Headers headers, String name) {
    Header header = headers.lastHeader(name);
    return header == null || header.value() == null
        ? null
        : new String(header.value(), StandardCharsets.UTF_8);
  }
}
