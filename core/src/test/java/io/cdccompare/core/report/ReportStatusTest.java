package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportStatusTest {

  private static final RowTotals MATCHED = new RowTotals(10, 0, 0, 0, 0);
  private static final RowTotals ALL_IN_FLIGHT = new RowTotals(0, 0, 0, 0, 10);

  /**
   * The totals of a target on a table whose run noted {@code noted} chunks of 10 rows each, all
   * compared on the source, of which the target verified {@code verified} with {@code rows}.
   */
  private static ReportTotals table(long noted, long verified, RowTotals rows) {
    TableRun run = TableRun.start("r1", "FULL");
    for (int i = 0; i < noted; i++) {
      run = run.withCapturedChunk(new NotedChunk(10, 10, new RunSlice(0, 1)));
    }
    return new ReportTotals(0, verified, 0, 0, rows, SourceRows.ZERO, 0).withRun(run);
  }

  @Test
  void everyNotedChunkComparedWithoutDifferencesIsInSync() {
    // Given
    ReportTotals totals = new ReportTotals(3, 3, 0, 0, MATCHED, SourceRows.ZERO, 0);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void nothingNotedAndNothingComparedIsInSync() {
    // Given
    ReportTotals totals = ReportTotals.EMPTY;

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void fewerChunksComparedThanNotedIsInProgress() {
    // Given
    ReportTotals totals = new ReportTotals(3, 2, 0, 0, MATCHED, SourceRows.ZERO, 0);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_PROGRESS);
  }

  @Test
  void inFlightRowsAreNoDifferences() {
    // Given
    ReportTotals totals =
        new ReportTotals(1, 1, 0, 0, new RowTotals(10, 0, 0, 0, 4), SourceRows.ZERO, 0);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void aFailedMissedOrExtraRowIsDifferencesEvenWhileInProgress() {
    // Given one of each kind of difference, each with chunks still to compare
    RowTotals failed = new RowTotals(9, 1, 0, 0, 0);
    RowTotals missed = new RowTotals(9, 0, 1, 0, 0);
    RowTotals extra = new RowTotals(9, 0, 0, 1, 0);

    // When
    // Then
    for (RowTotals rows : new RowTotals[] {failed, missed, extra}) {
      assertThat(ReportStatus.of(new ReportTotals(5, 1, 0, 0, rows, SourceRows.ZERO, 0)))
          .as("%s", rows)
          .isEqualTo(ReportStatus.DIFFERENCES);
    }
  }

  @Test
  void anUnverifiableChunkOutranksDifferences() {
    // Given
    ReportTotals totals =
        new ReportTotals(2, 2, 1, 0, new RowTotals(1, 1, 1, 1, 0), SourceRows.ZERO, 0);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.UNVERIFIABLE);
  }

  @Test
  void aSchemaDriftChunkIsUnverifiable() {
    // Given
    ReportTotals totals = new ReportTotals(2, 1, 0, 1, RowTotals.ZERO, SourceRows.ZERO, 0);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.UNVERIFIABLE);
  }

  @Test
  void aTableWhoseEveryReadRowWasInFlightComparedNothing() {
    // Given every noted chunk verified, the source read 10 rows, the target compared none
    ReportTotals totals = table(1, 1, ALL_IN_FLIGHT);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.NOTHING_COMPARED);
  }

  @Test
  void oneComparedRowIsEnoughToBeInSync() {
    // Given
    ReportTotals totals = table(1, 1, new RowTotals(1, 0, 0, 0, 9));

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void aTableWithoutSourceRowsIsInSync() {
    // Given an empty table: its one chunk read no row
    TableRun run =
        TableRun.start("r1", "FULL").withCapturedChunk(new NotedChunk(0, 0, new RunSlice(0, 1)));
    ReportTotals totals =
        new ReportTotals(0, 1, 0, 0, RowTotals.ZERO, SourceRows.ZERO, 0).withRun(run);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void chunksStillToVerifyOutrankNothingCompared() {
    // Given 1 of 2 noted chunks verified, all its rows in flight
    ReportTotals totals = table(2, 1, ALL_IN_FLIGHT);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_PROGRESS);
  }

  @Test
  void anExtraRowOutranksNothingCompared() {
    // Given every source row in flight and one extra row on the target
    ReportTotals totals = table(1, 1, new RowTotals(0, 0, 0, 1, 10));

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.DIFFERENCES);
  }

  @Test
  void anUnverifiableChunkOutranksNothingCompared() {
    // Given every source row in flight in one chunk, the other unverifiable
    TableRun run = TableRun.start("r1", "FULL");
    for (int i = 0; i < 2; i++) {
      run = run.withCapturedChunk(new NotedChunk(10, 10, new RunSlice(0, 1)));
    }
    ReportTotals totals =
        new ReportTotals(0, 2, 1, 0, ALL_IN_FLIGHT, SourceRows.ZERO, 0).withRun(run);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.UNVERIFIABLE);
  }

  @Test
  void aTaskWithATableThatComparedNothingIsNeverInSync() {
    // Given one table in sync and one that compared nothing
    ReportTotals task = table(2, 2, MATCHED).plus(table(1, 1, ALL_IN_FLIGHT));

    // When
    ReportStatus status = ReportStatus.of(task);

    // Then
    assertThat(task.rows().compared()).isPositive();
    assertThat(status).isEqualTo(ReportStatus.NOTHING_COMPARED);
  }

  @Test
  void aTaskWithATableInProgressIsInProgressBeforeNothingCompared() {
    // Given one table still in progress and one that compared nothing
    ReportTotals task = table(2, 1, MATCHED).plus(table(1, 1, ALL_IN_FLIGHT));

    // When
    ReportStatus status = ReportStatus.of(task);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_PROGRESS);
  }
}
