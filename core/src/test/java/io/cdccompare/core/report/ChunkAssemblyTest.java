package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.verdict.ChunkState;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ChunkAssemblyTest {

  @Test
  void aChunkIsCompleteWhenEveryPartitionReported() {
    // Given
    ChunkAssembly chunk = ChunkAssembly.start("r1", 3);

    // When
    ChunkAssembly two = chunk.add(verified(0, 3)).add(verified(2, 3));
    ChunkAssembly three = two.add(verified(1, 3));

    // Then
    assertThat(two.complete()).isFalse();
    assertThat(three.complete()).isTrue();
    assertThat(three.rows()).isEqualTo(new RowTotals(3, 0, 0, 0, 0));
  }

  @Test
  void aPartitionThatReportedIsHeld() {
    // Given
    ChunkAssembly chunk = ChunkAssembly.start("r1", 2).add(verified(1, 2));

    // When
    // Then
    assertThat(chunk.holds(1)).isTrue();
    assertThat(chunk.holds(0)).isFalse();
    assertThatThrownBy(() -> chunk.add(verified(1, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already counted");
  }

  @Test
  void aResultWithAnotherPartitionCountIsRefused() {
    // Given
    ChunkAssembly chunk = ChunkAssembly.start("r1", 2).add(verified(0, 2));

    // When
    // Then
    assertThatThrownBy(() -> chunk.add(verified(1, 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reports 3 partitions, the chunk's other results 2");
  }

  @Test
  void theFirstUnverifiablePartitionRaisesTheChunksAlertOnce() {
    // Given
    ChunkAssembly chunk = ChunkAssembly.start("r1", 3);
    PartitionResult first = notVerified(0, ChunkState.UNVERIFIABLE);
    PartitionResult second = notVerified(1, ChunkState.UNVERIFIABLE);
    PartitionResult drift = notVerified(2, ChunkState.SCHEMA_DRIFT);

    // When
    boolean firstRaises = chunk.raisedBy(first);
    ChunkAssembly after = chunk.add(first);

    // Then
    assertThat(firstRaises).isTrue();
    assertThat(after.raisedBy(second)).isFalse();
    assertThat(after.raisedBy(drift)).isTrue();
    assertThat(after.raisedBy(verified(2, 3))).isFalse();
  }

  @Test
  void aStalledPartitionMakesTheChunkUnverifiableWithoutASecondAlert() {
    // Given
    ChunkAssembly chunk = ChunkAssembly.start("r1", 3).add(verified(0, 3));
    PartitionResult stalled = notVerified(1, ChunkState.STALLED);

    // When
    boolean raises = chunk.raisedBy(stalled);
    ChunkAssembly after = chunk.add(stalled);

    // Then: counted unverifiable; the verifier raised the STALLED alert itself
    assertThat(raises).isFalse();
    assertThat(chunk.unverifiable()).isFalse();
    assertThat(after.unverifiable()).isTrue();
    assertThat(after.schemaDrift()).isFalse();
  }

  @Test
  void theSampleKeepsAtMostTwentyKeysAcrossPartitions() {
    // Given two partitions with 15 differing keys each
    List<String> a = IntStream.range(0, 15).mapToObj(i -> "a" + i).toList();
    List<String> b = IntStream.range(0, 15).mapToObj(i -> "b" + i).toList();

    // When
    ChunkAssembly chunk =
        ChunkAssembly.start("r1", 2)
            .add(new PartitionResult(0, 2, ChunkState.VERIFIED, new RowTotals(0, 15, 0, 0, 0), a))
            .add(new PartitionResult(1, 2, ChunkState.VERIFIED, new RowTotals(0, 0, 15, 0, 0), b));

    // Then
    assertThat(chunk.sampleKeys())
        .hasSize(ChunkAssembly.SAMPLE_KEYS)
        .startsWith("a0")
        .endsWith("b4");
    assertThat(chunk.rows().differences()).isEqualTo(30);
  }

  private static PartitionResult verified(int partition, int count) {
    return new PartitionResult(
        partition, count, ChunkState.VERIFIED, new RowTotals(1, 0, 0, 0, 0), List.of());
  }

  private static PartitionResult notVerified(int partition, ChunkState state) {
    return new PartitionResult(partition, 3, state, RowTotals.ZERO, List.of());
  }
}
