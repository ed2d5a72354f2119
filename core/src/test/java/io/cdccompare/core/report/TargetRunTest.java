package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.verdict.ChunkState;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetRunTest {

  @Test
  void onlyTheFirstChunkWithDifferencesRaisesTheAlert() {
    // Given
    TargetRun run = TargetRun.start("r1");
    ChunkAssembly clean = chunk("r1", new RowTotals(5, 0, 0, 0, 2));
    ChunkAssembly differs = chunk("r1", new RowTotals(3, 1, 1, 0, 0));

    // When
    boolean cleanRaises = run.raisesDifferences(clean);
    TargetRun afterClean = run.withChunk(clean);
    boolean firstRaises = afterClean.raisesDifferences(differs);
    TargetRun afterFirst = afterClean.withChunk(differs);

    // Then
    assertThat(cleanRaises).isFalse();
    assertThat(firstRaises).isTrue();
    assertThat(afterFirst.raisesDifferences(differs)).isFalse();
    assertThat(afterFirst.totals())
        .isEqualTo(new ReportTotals(0, 2, 0, 0, new RowTotals(8, 1, 1, 0, 2), SourceRows.ZERO, 0));
  }

  @Test
  void totalsOfAnOlderRunRestartInTheNewRun() {
    // Given
    TargetRun old = TargetRun.start("r1").withChunk(chunk("r1", new RowTotals(0, 4, 0, 0, 0)));

    // When
    TargetRun same = TargetRun.inRun(old, "r1");
    TargetRun next = TargetRun.inRun(old, "r2");

    // Then
    assertThat(same).isSameAs(old);
    assertThat(next).isEqualTo(TargetRun.start("r2"));
    assertThat(TargetRun.inRun(null, "r2")).isEqualTo(TargetRun.start("r2"));
  }

  @Test
  void aChunkOfAnotherRunIsRefused() {
    // Given
    TargetRun run = TargetRun.start("r2");

    // When
    // Then
    assertThatThrownBy(() -> run.withChunk(chunk("r1", RowTotals.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run r1 does not count in run r2");
  }

  private static ChunkAssembly chunk(String runId, RowTotals rows) {
    return ChunkAssembly.start(runId, 1)
        .add(new PartitionResult(0, 1, ChunkState.VERIFIED, rows, List.of()));
  }
}
