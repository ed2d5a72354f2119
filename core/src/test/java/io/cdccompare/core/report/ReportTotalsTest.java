package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.verdict.ChunkState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTotalsTest {

  @Test
  void aCompleteChunkAddsOneAppliedChunkAndItsRows() {
    // Given
    ChunkAssembly chunk =
        ChunkAssembly.start("r1", 2)
            .add(result(0, ChunkState.VERIFIED, new RowTotals(5, 1, 0, 0, 0)))
            .add(result(1, ChunkState.VERIFIED, new RowTotals(4, 0, 2, 1, 3)));

    // When
    ReportTotals totals =
        new ReportTotals(7, 3, 0, 0, new RowTotals(100, 0, 0, 0, 0), SourceRows.ZERO, 0)
            .withChunk(chunk);

    // Then
    assertThat(totals)
        .isEqualTo(
            new ReportTotals(7, 4, 0, 0, new RowTotals(109, 1, 2, 1, 3), SourceRows.ZERO, 0));
  }

  @Test
  void aChunkWithAnUnverifiableAndADriftPartitionCountsInBoth() {
    // Given
    ChunkAssembly chunk =
        ChunkAssembly.start("r1", 2)
            .add(result(0, ChunkState.UNVERIFIABLE, RowTotals.ZERO))
            .add(result(1, ChunkState.SCHEMA_DRIFT, RowTotals.ZERO));

    // When
    ReportTotals totals = ReportTotals.EMPTY.withChunk(chunk);

    // Then
    assertThat(totals).isEqualTo(new ReportTotals(0, 1, 1, 1, RowTotals.ZERO, SourceRows.ZERO, 0));
  }

  @Test
  void anIncompleteChunkDoesNotCount() {
    // Given
    ChunkAssembly chunk =
        ChunkAssembly.start("r1", 2).add(result(0, ChunkState.VERIFIED, RowTotals.ZERO));

    // When
    // Then
    assertThatThrownBy(() -> ReportTotals.EMPTY.withChunk(chunk))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 of 2 partitions");
  }

  @Test
  void tablesSumIntoTaskTotals() {
    // Given
    ReportTotals orders =
        new ReportTotals(4, 4, 0, 0, new RowTotals(40, 1, 0, 0, 0), SourceRows.ZERO, 0);
    ReportTotals lines =
        new ReportTotals(6, 2, 1, 0, new RowTotals(20, 0, 0, 3, 2), SourceRows.ZERO, 0);

    // When
    ReportTotals task = orders.plus(lines);

    // Then
    assertThat(task)
        .isEqualTo(
            new ReportTotals(10, 6, 1, 0, new RowTotals(60, 1, 0, 3, 2), SourceRows.ZERO, 0));
  }

  @Test
  void sourceRowsAndTablesThatComparedNothingSumIntoTaskTotals() {
    // Given
    ReportTotals orders =
        new ReportTotals(4, 4, 0, 0, RowTotals.ZERO, new SourceRows(400, 40, 120), 1);
    ReportTotals lines =
        new ReportTotals(6, 6, 0, 0, RowTotals.ZERO, new SourceRows(600, 60, 60), 0);

    // When
    ReportTotals task = orders.plus(lines);

    // Then
    assertThat(task.source()).isEqualTo(new SourceRows(1000, 100, 180));
    assertThat(task.nothingComparedTables()).isEqualTo(1);
  }

  @Test
  void theTableRunGivesCaptureAndSourceRows() {
    // Given a target that verified both chunks of its table's run
    TableRun run =
        TableRun.start("r1", "FULL")
            .withCapturedChunk(new NotedChunk(100, 10, new RunSlice(0, 10)))
            .withCapturedChunk(new NotedChunk(80, 8, new RunSlice(0, 10)));
    ReportTotals target =
        new ReportTotals(0, 2, 0, 0, new RowTotals(17, 0, 0, 0, 1), SourceRows.ZERO, 0);

    // When
    ReportTotals totals = target.withRun(run);

    // Then
    assertThat(totals)
        .isEqualTo(
            new ReportTotals(
                2, 2, 0, 0, new RowTotals(17, 0, 0, 0, 1), new SourceRows(180, 18, 18), 0));
  }

  @Test
  void theTableRunMarksATableThatComparedNothing() {
    // Given a target that verified the run's one chunk, every row in flight
    TableRun run =
        TableRun.start("r1", "FULL")
            .withCapturedChunk(new NotedChunk(100, 10, new RunSlice(0, 10)));
    ReportTotals target =
        new ReportTotals(0, 1, 0, 0, new RowTotals(0, 0, 0, 0, 10), SourceRows.ZERO, 0);

    // When
    ReportTotals totals = target.withRun(run);

    // Then
    assertThat(totals.nothingComparedTables()).isEqualTo(1);
  }

  @Test
  void moreUnverifiableChunksThanAppliedAreRefused() {
    // Given
    // When
    // Then
    assertThatThrownBy(() -> new ReportTotals(3, 1, 2, 0, RowTotals.ZERO, SourceRows.ZERO, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("are chunks of apply");
  }

  static PartitionResult result(int partition, ChunkState state, RowTotals rows) {
    return new PartitionResult(partition, 2, state, rows, List.of());
  }
}
