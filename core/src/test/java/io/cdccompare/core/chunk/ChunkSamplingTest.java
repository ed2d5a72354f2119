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
}
