package io.cdccompare.schemas;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The one codec between a compare note (core's {@link Note}, the row of {@code
 * repi.validatetables}) and its marker (the Avro {@link Marker} in every partition of the noted
 * table's topic): the capture writes markers by it, a verifier that meets a note in another form
 * (another capture's change of the note table) reads it back by it, and the compare's hash record
 * locations pass through it to the note's {@code hash_locations}. A marker carries every field of
 * its note but the saved position (the compare's own resume position), plus where it lies: its
 * topic, partition, the partition count and the note's source position.
 */
public final class MarkerCodec {
  private MarkerCodec() {}

  /** One marker per partition of the table topic, in partition order. */
  public static List<Marker> markers(
      Note note, String topic, int partitions, SourcePosition position) {
    List<Marker> copies = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      copies.add(marker(note, topic, p, partitions, position));
    }
    return copies;
  }

  /** The marker of a note in one partition of the table topic. */
  public static Marker marker(
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
        .setHashRecords(hashRecords(note.hashLocations()))
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
        .setComparedRange(avroRange(note.range()))
        .setSlice(note.slice())
        .setSlices(note.slices())
        .build();
  }

  /**
   * The note a marker was written from, without its saved position (a marker does not carry it). A
   * marker of an older producer without a compared range reads as {@link #comparedRange}.
   *
   * @throws IllegalArgumentException naming the note column at fault when the marker is no
   *     well-formed note
   */
  public static Note note(Marker marker) {
    return new Note(
        marker.getTask(),
        TableName.parse(marker.getTable()),
        marker.getRunId(),
        marker.getTaskKind().name(),
        marker.getChunk(),
        Note.Phase.valueOf(marker.getPhase().name()),
        marker.getDeep(),
        marker.getFirstComparedKey(),
        marker.getLastKey(),
        asInt(marker.getChunkRows()),
        asInt(marker.getComparedRows()),
        marker.getHashesTopic(),
        locations(marker.getHashRecords()),
        marker.getColumnFingerprint().isEmpty() ? null : marker.getColumnFingerprint(),
        marker.getComparedShape(),
        null,
        comparedRange(marker),
        marker.getSlice(),
        marker.getSlices(),
        marker.getNotedAt());
  }

  /**
   * The key range a CLOSE marker compares; a marker of an older producer without one compares
   * {@code [firstComparedKey, lastKey]}, and none when it compared no row (and for an OPEN).
   */
  public static ComparedRange comparedRange(Marker marker) {
    io.cdccompare.schemas.avro.ComparedRange range = marker.getComparedRange();
    if (range != null) {
      return new ComparedRange(range.getLower(), range.getLowerInclusive(), range.getUpper());
    }
    String first = marker.getFirstComparedKey();
    return first == null ? null : ComparedRange.between(first, marker.getLastKey());
  }

  /** The hash record locations of a marker (or of the compare's writes) as the note lists them. */
  public static List<HashLocation> locations(List<HashRecordLocation> records) {
    List<HashLocation> out = new ArrayList<>(records.size());
    for (HashRecordLocation l : records) {
      out.add(
          new HashLocation(
              l.getTablePartition(),
              l.getHashesPartition(),
              l.getOffset(),
              l.getPart(),
              l.getPartCount()));
    }
    return out;
  }

  /** A note's hash record locations as its marker carries them. */
  public static List<HashRecordLocation> hashRecords(List<HashLocation> locations) {
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

  private static io.cdccompare.schemas.avro.ComparedRange avroRange(ComparedRange range) {
    return range == null
        ? null
        : io.cdccompare.schemas.avro.ComparedRange.newBuilder()
            .setLower(range.lower())
            .setLowerInclusive(range.lowerInclusive())
            .setUpper(range.upper())
            .build();
  }

  private static Long asLong(Integer value) {
    return value == null ? null : value.longValue();
  }

  private static Integer asInt(Long value) {
    return value == null ? null : Math.toIntExact(value);
  }
}
