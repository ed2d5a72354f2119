package io.cdccompare.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChunkSamplingTest {

  @Test
  void tenPercentOf105RowsComparesTheLast11() {
    ChunkSampling sampling = new ChunkSampling(10_000, 10);
    assertThat(sampling.comparedRows(105)).isEqualTo(11);
    assertThat(sampling.firstComparedIndex(105)).isEqualTo(94);
  }

  @ParameterizedTest
  @CsvSource({
    "10000, 10, 1000",
    "10000, 100, 10000",
    "1, 1, 0",
    "50, 1, 1",
    "49, 1, 0",
    "3, 50, 2",
    "0, 10, 0",
    "2147483647, 100, 2147483647"
  })
  void roundsHalvesUp(int rows, int deep, int compared) {
    assertThat(new ChunkSampling(10_000, deep).comparedRows(rows)).isEqualTo(compared);
  }

  @Test
  void onlyDeep100ComparesEveryRow() {
    assertThat(new ChunkSampling(100, 99).comparedRows(1000)).isEqualTo(990);
    assertThat(new ChunkSampling(100, 100).firstComparedIndex(1000)).isZero();
  }

  @Test
  void defaultsAreTenThousandRowsAndTenPercent() {
    assertThat(ChunkSampling.defaults()).isEqualTo(new ChunkSampling(10_000, 10));
  }

  @Test
  void refusesDeepOutside1To100AndNonPositiveChunks() {
    assertThatThrownBy(() -> new ChunkSampling(10, 0)).hasMessage("deep must be 1..100, was 0");
    assertThatThrownBy(() -> new ChunkSampling(10, 101)).hasMessage("deep must be 1..100, was 101");
    assertThatThrownBy(() -> new ChunkSampling(0, 10)).hasMessage("chunk must be > 0, was 0");
  }

  @ParameterizedTest
  @CsvSource({"100, 1", "50, 2", "34, 3", "33, 4", "30, 4", "25, 4", "10, 10", "1, 100"})
  void aChunkHasCeil100OverDeepSlices(int deep, int slices) {
    assertThat(new ChunkSampling(100, deep).slices()).isEqualTo(slices);
  }

  @Test
  void sliceZeroIsTheLastComparedRowsAsWithoutRotation() {
    ChunkSampling sampling = new ChunkSampling(10_000, 10);
    assertThat(sampling.slice(105, 0)).isEqualTo(new ChunkSampling.Slice(94, 105));
    assertThat(new ChunkSampling(10_000, 100).slice(7, 0)).isEqualTo(new ChunkSampling.Slice(0, 7));
  }

  @Test
  void theFirstSliceTakesWhatIsLeftBeforeTheOthers() {
    // Given 10 % of 105 rows: ten slices, nine of 11 rows from the end, the first of 6
    ChunkSampling sampling = new ChunkSampling(10_000, 10, true);

    // Then
    assertThat(sampling.slice(105, 1)).isEqualTo(new ChunkSampling.Slice(83, 94));
    assertThat(sampling.slice(105, 8)).isEqualTo(new ChunkSampling.Slice(6, 17));
    assertThat(sampling.slice(105, 9)).isEqualTo(new ChunkSampling.Slice(0, 6));
  }

  @ParameterizedTest
  @CsvSource({
    "1, 0",
    "1, 1",
    "1, 7",
    "1, 100",
    "1, 250",
    "3, 1",
    "7, 3",
    "10, 105",
    "25, 10",
    "30, 100",
    "33, 100",
    "34, 1",
    "34, 2",
    "49, 99",
    "50, 1",
    "60, 3",
    "99, 1000",
    "100, 17"
  })
  void theSlicesOfAChunkAreDisjointAndHoldEveryRow(int deep, int rows) {
    // Given
    ChunkSampling sampling = new ChunkSampling(10_000, deep, true);
    int[] seen = new int[rows];

    // When
    for (int s = 0; s < sampling.slices(); s++) {
      ChunkSampling.Slice slice = sampling.slice(rows, s);
      for (int i = slice.start(); i < slice.end(); i++) {
        seen[i]++;
      }
    }

    // Then
    assertThat(seen).containsOnly(rows == 0 ? new int[0] : new int[] {1});
  }

  @Test
  void withRotationTheRunsTakeTheSlicesInTurn() {
    ChunkSampling rotating = new ChunkSampling(100, 30, true);
    assertThat(java.util.stream.LongStream.range(0, 9).map(rotating::sliceOfRun).toArray())
        .containsExactly(0, 1, 2, 3, 0, 1, 2, 3, 0);
    assertThat(new ChunkSampling(100, 30).sliceOfRun(5)).isZero();
    assertThat(new ChunkSampling(100, 100, true).sliceOfRun(5)).isZero();
  }

  @Test
  void refusesASliceOutsideTheChunk() {
    assertThatThrownBy(() -> new ChunkSampling(10, 50).slice(10, 2))
        .hasMessage("slice must be 0..1, was 2");
  }
}
