package io.cdccompare.capture;

import io.cdccompare.core.note.Note;
import org.apache.kafka.connect.data.Struct;

/**
 * Reads a note (an update of {@code repi.validatetables}, its after-image as Debezium delivers it)
 * by the one note contract, core's {@link Note}, which refuses a malformed note naming the column;
 * schemas' {@link io.cdccompare.schemas.MarkerCodec} turns it into the marker copies written to
 * every partition of the noted table's topic.
 */
final class NoteMarkers {
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
}
