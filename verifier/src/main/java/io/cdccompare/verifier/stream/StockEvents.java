package io.cdccompare.verifier.stream;

import io.cdccompare.core.note.Note;
import io.cdccompare.events.EventKeyEncoder;
import io.cdccompare.events.StockSourcePosition;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.storage.Converter;

/**
 * Reads the records of a stock Debezium PostgreSQL connector's topics with the converters the
 * connector writes them with ({@link ConnectPipeline#converters}): a table record's key (as the
 * source's key encoding) and position ({@link PartitionLog}), and a note ({@code
 * repi.validatetables} row) with its position. Keys and values must carry their schema (Avro, or
 * JSON with {@code schemas.enable=true}): without it a key's column types are unknown and its
 * encoding could not be exact. A record's headers go to the converters, as the worker gives them:
 * Apicurio's converter keeps the schema's id there by default. Not thread-safe (converters keep
 * schema caches).
 */
final class StockEvents {
  /** {@code source.snapshot} of the records of an initial snapshot, before streaming. */
  private static final Set<String> INITIAL_SNAPSHOT =
      Set.of("true", "first", "last", "first_in_data_collection", "last_in_data_collection");

  private final Converter keys;
  private final Converter values;

  StockEvents(ConnectPipeline pipeline) {
    this.keys = converter(pipeline, "key");
    this.values = converter(pipeline, "value");
  }

  /** A table record: its key and where its transaction lies ({@link PartitionLog#add}). */
  record Change(String key, OptionalLong lastCommit) {}

  /** A note with the commit LSN streamed before its transaction (empty when unknown). */
  record NoteEvent(Note note, OptionalLong lastCommit) {}

  /**
   * The change of a table record; null for a tombstone (the delete before it carries the key).
   *
   * @throws IllegalArgumentException saying what is wrong with the record
   */
  Change change(String topic, Headers headers, byte[] key, byte[] value, EventKeyEncoder encoder) {
    if (value == null) {
      return null;
    }
    if (key == null) {
      throw new IllegalArgumentException("a change record without a key");
    }
    SchemaAndValue k = keys.toConnectData(topic, headers, key);
    if (!(k.value() instanceof Struct keyStruct)) {
      throw new IllegalArgumentException(
          "the key is no struct with a schema (JSON keys need key.converter.schemas.enable=true)");
    }
    Struct envelope = envelope(topic, headers, value);
    return new Change(encoder.encode(keyStruct), position(envelope));
  }

  /**
   * The position of a table record alone ({@link PartitionLog#add}), its key not read; null for a
   * tombstone.
   *
   * @throws IllegalArgumentException saying what is wrong with the record
   */
  OptionalLong lastCommit(String topic, Headers headers, byte[] value) {
    return value == null ? null : position(envelope(topic, headers, value));
  }

  /**
   * The note of a record of the notes topic; null for a tombstone or the delete of a note row.
   *
   * @throws IllegalArgumentException naming the column at fault when the row is no note
   */
  NoteEvent note(String topic, Headers headers, byte[] value) {
    if (value == null) {
      return null;
    }
    Struct envelope = envelope(topic, headers, value);
    Struct after = envelope.getStruct("after");
    if (after == null || "r".equals(envelope.getString("op"))) {
      return null; // a deleted note row, or a snapshot's copy of the row: no note was written
    }
    Note note =
        Note.read(column -> after.schema().field(column) == null ? null : after.get(column));
    return new NoteEvent(note, position(envelope));
  }

  private Struct envelope(String topic, Headers headers, byte[] value) {
    SchemaAndValue v = values.toConnectData(topic, headers, value);
    if (!(v.value() instanceof Struct struct)
        || struct.schema().field("op") == null
        || struct.schema().field("source") == null) {
      throw new IllegalArgumentException(
          "the value is no Debezium change envelope with a schema (JSON values need"
              + " value.converter.schemas.enable=true)");
    }
    return struct;
  }

  /**
   * The commit LSN streamed before the record's transaction: {@link PartitionLog#SNAPSHOT} for a
   * record of the initial snapshot; empty when unknown (the first transaction after a connector
   * start, or an incremental snapshot's read).
   */
  private static OptionalLong position(Struct envelope) {
    Struct source = envelope.getStruct("source");
    Object snapshot = source.schema().field("snapshot") == null ? null : source.get("snapshot");
    if ("r".equals(envelope.getString("op"))
        && snapshot != null
        && INITIAL_SNAPSHOT.contains(snapshot.toString())) {
      return OptionalLong.of(PartitionLog.SNAPSHOT);
    }
    try {
      return StockSourcePosition.of(source).lastCommitLsn();
    } catch (IllegalArgumentException e) {
      return OptionalLong.empty(); // no log position: after every note, as far as is known
    }
  }

  private static Converter converter(ConnectPipeline pipeline, String side) {
    String className = pipeline.converters().get(side + ".converter");
    Converter converter;
    try {
      converter =
          Class.forName(className)
              .asSubclass(Converter.class)
              .getDeclaredConstructor()
              .newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalArgumentException(
          side + ".converter: " + className + " is no Kafka Connect converter on the class path",
          e);
    }
    Map<String, String> settings = pipeline.converterSettings(side);
    converter.configure(settings, side.equals("key"));
    return converter;
  }
}
