package io.cdccompare.core.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.table.TableName;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoteTest {

  /** A CLOSE row as the capture receives it (Debezium's types: Long, Integer, Boolean, text). */
  private static Map<String, Object> closeRow() {
    Map<String, Object> row = new HashMap<>();
    row.put(Note.TASK, "nightly");
    row.put(Note.TABLE_SCHEMA, "shop");
    row.put(Note.TABLE_NAME, "orders");
    row.put(Note.RUN_ID, "20261201T000000Z-abcdef");
    row.put(Note.KIND, "FULL");
    row.put(Note.CHUNK, 7L);
    row.put(Note.PHASE, "CLOSE");
    row.put(Note.DEEP, 100);
    row.put(Note.FIRST_KEY, "70001");
    row.put(Note.LAST_KEY, "80000");
    row.put(Note.CHUNK_ROWS, 10_000);
    row.put(Note.COMPARED_ROWS, 10_000);
    row.put(Note.HASHES_TOPIC, "shop.compare.hashes");
    row.put(
        Note.HASH_LOCATIONS,
        Note.hashLocationsJson(
            List.of(new HashLocation(0, 2, 41, 0, 1), new HashLocation(1, 0, 17, 1, 2))));
    row.put(Note.COLUMN_FINGERPRINT, "f00d");
    row.put(Note.COMPARED_SHAPE, "{}");
    row.put(Note.SAVED_POSITION, "80000");
    row.put(Note.RANGE_LOWER, "70000");
    row.put(Note.RANGE_LOWER_INCL, false);
    row.put(Note.RANGE_UPPER, "80000");
    row.put(Note.SLICE, 0);
    row.put(Note.SLICES, 1);
    row.put(Note.NOTED_AT, "2026-12-01T10:15:30.123456Z");
    return row;
  }

  @Test
  void aCloseRowReadsBackWithItsHashLocationsAndRange() {
    // Given a CLOSE row whose hash locations were written by the compare's codec
    // When the capture reads it
    Note note = Note.read(closeRow()::get);

    // Then every field is there, typed
    assertThat(note.table()).isEqualTo(new TableName("shop", "orders"));
    assertThat(note.phase()).isEqualTo(Note.Phase.CLOSE);
    assertThat(note.chunk()).isEqualTo(7);
    assertThat(note.hashLocations())
        .containsExactly(new HashLocation(0, 2, 41, 0, 1), new HashLocation(1, 0, 17, 1, 2));
    assertThat(note.range()).isEqualTo(new ComparedRange("70000", false, "80000"));
    assertThat(note.chunkRows()).isEqualTo(10_000);
    assertThat(note.notedAt()).isEqualTo(Instant.parse("2026-12-01T10:15:30.123456Z"));
  }

  @Test
  void anOpenRowOfAnEarlierNoteTableHasNoRangeAndOneSlice() {
    // Given an OPEN row of a note table without the range and slice columns
    Map<String, Object> row = closeRow();
    row.put(Note.PHASE, "OPEN");
    row.keySet()
        .removeAll(
            List.of(
                Note.RANGE_LOWER,
                Note.RANGE_LOWER_INCL,
                Note.RANGE_UPPER,
                Note.SLICE,
                Note.SLICES,
                Note.HASH_LOCATIONS,
                Note.CHUNK_ROWS));

    // When it is read / Then it compares no range, slice 0 of 1, and lists no hash record
    Note note = Note.read(row::get);
    assertThat(note.range()).isNull();
    assertThat(note.slice()).isZero();
    assertThat(note.slices()).isEqualTo(1);
    assertThat(note.hashLocations()).isEmpty();
    assertThat(note.chunkRows()).isNull();
  }

  @Test
  void hashLocationsWrittenBeforeRecordsWereSplitArePartZeroOfOne() {
    assertThat(
            Note.parseHashLocations("[{\"tablePartition\":1,\"hashesPartition\":0,\"offset\":5}]"))
        .containsExactly(new HashLocation(1, 0, 5, 0, 1));
  }

  @Test
  void aMalformedNoteIsRefusedNamingTheColumn() {
    // Given rows broken one column at a time / Then each is refused naming that column
    Map<String, Object> phase = closeRow();
    phase.put(Note.PHASE, "HALF");
    Map<String, Object> deep = closeRow();
    deep.put(Note.DEEP, 0);
    Map<String, Object> slice = closeRow();
    slice.put(Note.SLICE, 3);
    Map<String, Object> kind = closeRow();
    kind.put(Note.KIND, "PARTIAL");
    Map<String, Object> task = closeRow();
    task.remove(Note.TASK);
    Map<String, Object> chunk = closeRow();
    chunk.put(Note.CHUNK, "seven");
    Map<String, Object> locations = closeRow();
    locations.put(Note.HASH_LOCATIONS, "{\"offset\": 1}");
    Map<String, Object> part = closeRow();
    part.put(
        Note.HASH_LOCATIONS,
        "[{\"tablePartition\":0,\"hashesPartition\":0,\"offset\":1,\"part\":2,\"partCount\":2}]");
    Map<String, Object> json = closeRow();
    json.put(Note.HASH_LOCATIONS, "[{");
    Map<String, Object> notedAt = closeRow();
    notedAt.put(Note.NOTED_AT, "yesterday");

    assertThatThrownBy(() -> Note.read(phase::get)).hasMessageContaining("phase");
    assertThatThrownBy(() -> Note.read(deep::get)).hasMessageContaining("deep");
    assertThatThrownBy(() -> Note.read(slice::get)).hasMessageContaining("slice");
    assertThatThrownBy(() -> Note.read(kind::get)).hasMessageContaining("kind");
    assertThatThrownBy(() -> Note.read(task::get)).hasMessageContaining("task");
    assertThatThrownBy(() -> Note.read(chunk::get)).hasMessageContaining("chunk");
    assertThatThrownBy(() -> Note.read(locations::get)).hasMessageContaining("hash_locations");
    assertThatThrownBy(() -> Note.read(part::get)).hasMessageContaining("part 2 of 2");
    assertThatThrownBy(() -> Note.read(json::get)).hasMessageContaining("hash_locations");
    assertThatThrownBy(() -> Note.read(notedAt::get)).hasMessageContaining("noted_at");
  }
}
