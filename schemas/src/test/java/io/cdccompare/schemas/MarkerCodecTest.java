package io.cdccompare.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.Marker;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkerCodecTest {
  private static final SourcePosition POSITION = new SourcePosition(4_000L, 3_900L, 77L);

  private static Note close(String table, ComparedRange range) {
    return new Note(
        "nightly",
        TableName.parse(table),
        "run-1",
        "FULL",
        12,
        Note.Phase.CLOSE,
        25,
        "[\"7\"]",
        "[\"90\"]",
        120,
        30,
        "cdc.compare.hashes",
        List.of(new HashLocation(0, 2, 51, 0, 2), new HashLocation(0, 2, 52, 1, 2)),
        "fp-1",
        "{\"shape\":1}",
        null,
        range,
        3,
        4,
        Instant.parse("2026-12-06T10:15:30.123456Z"));
  }

  @Test
  void aNoteSurvivesTheMarkerInEveryPartition() {
    Note note = close("inventory.\"Order Lines\"", new ComparedRange("[\"6\"]", false, "[\"90\"]"));

    List<Marker> markers = MarkerCodec.markers(note, "cdc.inventory.Order Lines", 3, POSITION);

    assertThat(markers).extracting(Marker::getPartition).containsExactly(0, 1, 2);
    assertThat(markers).allSatisfy(m -> assertThat(m.getPartitionCount()).isEqualTo(3));
    assertThat(markers).allSatisfy(m -> assertThat(MarkerCodec.note(m)).isEqualTo(note));
    Marker first = markers.get(0);
    assertThat(first.getTopic()).isEqualTo("cdc.inventory.Order Lines");
    assertThat(first.getSourcePosition().getCommitLsn()).isEqualTo(4_000L);
    assertThat(first.getSourcePosition().getEventLsn()).isEqualTo(3_900L);
    assertThat(first.getSourcePosition().getTxId()).isEqualTo(77L);
  }

  @Test
  void anOpenWithoutFingerprintOrRangeSurvivesToo() {
    Note open =
        new Note(
            "nightly",
            new TableName("public", "t"),
            "run-1",
            "RECHECK",
            0,
            Note.Phase.OPEN,
            100,
            null,
            null,
            null,
            null,
            null,
            List.of(),
            null,
            null,
            null,
            null,
            0,
            1,
            Instant.EPOCH);

    Marker marker = MarkerCodec.marker(open, "cdc.public.t", 0, 1, POSITION);

    assertThat(marker.getColumnFingerprint()).isEmpty();
    assertThat(marker.getComparedRange()).isNull();
    assertThat(MarkerCodec.note(marker)).isEqualTo(open);
  }

  @Test
  void theSavedPositionStaysOnTheSource() {
    Note note = close("public.t", null);
    Note withPosition =
        new Note(
            note.task(),
            note.table(),
            note.runId(),
            note.kind(),
            note.chunk(),
            note.phase(),
            note.deep(),
            note.firstKey(),
            note.lastKey(),
            note.chunkRows(),
            note.comparedRows(),
            note.hashesTopic(),
            note.hashLocations(),
            note.columnFingerprint(),
            note.comparedShape(),
            "[\"90\"]",
            note.range(),
            note.slice(),
            note.slices(),
            note.notedAt());

    Note back = MarkerCodec.note(MarkerCodec.marker(withPosition, "cdc.public.t", 0, 1, POSITION));

    assertThat(back.savedPosition()).isNull();
    assertThat(back).isNotEqualTo(withPosition);
  }

  @Test
  void aCloseOfAnOlderProducerComparesFromItsFirstToItsLastKey() {
    Marker marker = MarkerCodec.marker(close("public.t", null), "cdc.public.t", 0, 1, POSITION);

    assertThat(MarkerCodec.comparedRange(marker))
        .isEqualTo(ComparedRange.between("[\"7\"]", "[\"90\"]"));
    marker.setFirstComparedKey(null);
    assertThat(MarkerCodec.comparedRange(marker)).isNull();
  }

  @Test
  void hashLocationsConvertBothWays() {
    List<HashLocation> locations =
        List.of(new HashLocation(1, 0, 9, 0, 1), new HashLocation(2, 1, 10, 2, 3));

    assertThat(MarkerCodec.locations(MarkerCodec.hashRecords(locations))).isEqualTo(locations);
  }

  @Test
  void aMarkerThatIsNoWellFormedNoteIsRefusedNamingTheColumn() {
    Marker marker = MarkerCodec.marker(close("public.t", null), "cdc.public.t", 0, 1, POSITION);
    marker.setDeep(0);

    assertThatThrownBy(() -> MarkerCodec.note(marker))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deep");
  }
}
