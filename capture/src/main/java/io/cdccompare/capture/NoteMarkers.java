package io.cdccompare.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.ComparedRange;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.TaskKind;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns a note (an update of {@code repi.validatetables}, its after-image as Debezium delivers it)
 * into the marker copies written to every partition of the noted table's topic.
 */
final class NoteMarkers {
  /** Header on every marker record; its value is the phase ({@code OPEN} or {@code CLOSE}). */
  static final String MARKER_HEADER = "cdc.marker";

  private static final ObjectMapper JSON = new ObjectMapper();

  private NoteMarkers() {}

  /** The noted table. */
  static TableName notedTable(Struct note) {
    return new TableName(note.getString("table_schema"), note.getString("table_name"));
  }

  /** One marker per partition, in partition order. */
  static List<Marker> markers(Struct note, String topic, int partitions, SourcePosition position) {
    List<Marker> copies = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      copies.add(marker(note, topic, p, partitions, position));
    }
    return copies;
  }

  private static Marker marker(
      Struct note, String topic, int partition, int partitions, SourcePosition position) {
    MarkerPhase phase = MarkerPhase.valueOf(note.getString("phase"));
    return Marker.newBuilder()
        .setTask(note.getString("task"))
        .setRunId(note.getString("run_id"))
        .setTaskKind(TaskKind.valueOf(note.getString("kind")))
        .setTable(notedTable(note).toString())
        .setTopic(topic)
        .setChunk(note.getInt64("chunk"))
        .setPhase(phase)
        .setFirstComparedKey(note.getString("first_key"))
        .setLastKey(note.getString("last_key"))
        .setChunkRows(asLong(note.getInt32("chunk_rows")))
        .setComparedRows(asLong(note.getInt32("compared_rows")))
        .setHashesTopic(note.getString("hashes_topic"))
        .setHashRecords(locations(note.getString("hash_locations")))
        .setColumnFingerprint(orEmpty(note.getString("column_fingerprint")))
        .setDeep(note.getInt32("deep"))
        .setSourcePosition(
            io.cdccompare.schemas.avro.SourcePosition.newBuilder()
                .setCommitLsn(position.commitLsn())
                .setEventLsn(position.lsn())
                .setTxId(position.txId())
                .build())
        .setNotedAt(notedAt(note.getString("noted_at")))
        .setPartition(partition)
        .setPartitionCount(partitions)
        .setComparedShape(note.getString("compared_shape"))
        .setComparedRange(comparedRange(note))
        .setSlice(intOr(note, "slice", 0))
        .setSlices(intOr(note, "slices", 1))
        .build();
  }

  /**
   * The compared key range of a CLOSE: present exactly when {@code range_lower_incl} is set (a null
   * bound is an open end); none for an OPEN, a chunk that compared nothing, or a note table of an
   * earlier version.
   */
  private static ComparedRange comparedRange(Struct note) {
    if (note.schema().field("range_lower_incl") == null) {
      return null;
    }
    Boolean lowerInclusive = note.getBoolean("range_lower_incl");
    if (lowerInclusive == null) {
      return null;
    }
    return ComparedRange.newBuilder()
        .setLower(note.getString("range_lower"))
        .setLowerInclusive(lowerInclusive)
        .setUpper(note.getString("range_upper"))
        .build();
  }

  private static int intOr(Struct note, String field, int fallback) {
    if (note.schema().field(field) == null) {
      return fallback;
    }
    Integer value = note.getInt32(field);
    return value == null ? fallback : value;
  }

  private static Long asLong(Integer value) {
    return value == null ? null : value.longValue();
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  private static Instant notedAt(String zoned) {
    return zoned == null ? Instant.EPOCH : OffsetDateTime.parse(zoned).toInstant();
  }

  /**
   * Parses {@code hash_locations}: a JSON array of {@code {"tablePartition", "hashesPartition",
   * "offset", "part", "partCount"}} objects written by the compare producer.
   */
  static List<HashRecordLocation> locations(String json) {
    List<HashRecordLocation> out = new ArrayList<>();
    if (json == null || json.isBlank()) {
      return out;
    }
    try {
      JsonNode array = JSON.readTree(json);
      if (!array.isArray()) {
        throw new IllegalArgumentException("hash_locations is not a JSON array");
      }
      for (JsonNode n : array) {
        out.add(
            HashRecordLocation.newBuilder()
                .setTablePartition(n.path("tablePartition").asInt())
                .setHashesPartition(n.path("hashesPartition").asInt())
                .setOffset(n.path("offset").asLong())
                .setPart(n.path("part").asInt(0))
                .setPartCount(n.path("partCount").asInt(1))
                .build());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalArgumentException("hash_locations is not valid JSON: " + e.getMessage(), e);
    }
  }
}
