package io.cdccompare.capture;

import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.schemas.avro.ComparedRange;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns a note (an update of {@code repi.validatetables}, its after-image as Debezium delivers it)
 * into the marker copies written to every partition of the noted table's topic. The row is read by
 * the one note contract, core's {@link Note}, which refuses a malformed note naming the column.
 */
final class NoteMarkers {
  /** Header on every marker record; its value is the phase ({@code OPEN} or {@code CLOSE}). */
  private NoteMarkers() {}

  /**
   * The note of a row; a column the note table of an earlier version lacks reads as null.
   *
   * @throws IllegalArgumentException naming the column at fault when the row is no well-formed note
   */
  static Note read(Struct row) {
    return Note.read(column -> column(row, column));
  }

  /** A note row's column; null when the value is null or the row has no such column. */
  static Object column(Struct row, String column) {
    return row.schema().field(column) == null ? null : row.get(column);
  }

  /** One marker per partition, in partition order. */
  static List<Marker> markers(Note note, String topic, int partitions, SourcePosition position) {
    List<Marker> copies = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      copies.add(marker(note, topic, p, partitions, position));
    }
    return copies;
  }

  private static Marker marker(
      Note note, String topic, int partition, int partitions, SourcePosition position) {
    return Marker.newBuilder()
        .setTask(note.task())
        .setRunId(note.runId())
        .setTaskKind(TaskKind.valueOf(note.kind()))
        .setTable(note.table().toString())
        .setTopic(topic)
        .setChunk(note.chunk())
        .setPhase(MarkerPhase.valueOf(note.phase().name()))
        .setFirstComparedKey(note.firstKey())
        .setLastKey(note.lastKey())
        .setChunkRows(asLong(note.chunkRows()))
        .setComparedRows(asLong(note.comparedRows()))
        .setHashesTopic(note.hashesTopic())
        .setHashRecords(locations(note.hashLocations()))
        .setColumnFingerprint(note.columnFingerprint() == null ? "" : note.columnFingerprint())
        .setDeep(note.deep())
        .setSourcePosition(
            io.cdccompare.schemas.avro.SourcePosition.newBuilder()
                .setCommitLsn(position.commitLsn())
                .setEventLsn(position.lsn())
                .setTxId(position.txId())
                .build())
        .setNotedAt(note.notedAt())
        .setPartition(partition)
        .setPartitionCount(partitions)
        .setComparedShape(note.comparedShape())
        .setComparedRange(comparedRange(note.range()))
        .setSlice(note.slice())
        .setSlices(note.slices())
        .build();
  }

  /** The compared key range of a CLOSE; none for an OPEN or a chunk that compared nothing. */
  private static ComparedRange comparedRange(io.cdccompare.core.chunk.ComparedRange range) {
    return range == null
        ? null
        : ComparedRange.newBuilder()
            .setLower(range.lower())
            .setLowerInclusive(range.lowerInclusive())
            .setUpper(range.upper())
            .build();
  }

  private static List<HashRecordLocation> locations(List<HashLocation> locations) {
    List<HashRecordLocation> out = new ArrayList<>(locations.size());
    for (HashLocation l : locations) {
      out.add(
          HashRecordLocation.newBuilder()
              .setTablePartition(l.tablePartition())
              .setHashesPartition(l.hashesPartition())
              .setOffset(l.offset())
              .setPart(l.part())
              .setPartCount(l.partCount())
              .build());
    }
    return out;
  }

  private static Long asLong(Integer value) {
    return value == null ? null : value.longValue();
  }
}
