package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportStatusTest {

  private static final RowTotals MATCHED = new RowTotals(10, 0, 0, 0, 0);

  @Test
  void everyNotedChunkComparedWithoutDifferencesIsInSync() {
    // Given
    ReportTotals totals = new ReportTotals(3, 3, 0, 0, MATCHED);

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
    ReportTotals totals = new ReportTotals(3, 2, 0, 0, MATCHED);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.IN_PROGRESS);
  }

  @Test
  void inFlightRowsAreNoDifferences() {
    // Given
    ReportTotals totals = new ReportTotals(1, 1, 0, 0, new RowTotals(10, 0, 0, 0, 4));

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
      assertThat(ReportStatus.of(new ReportTotals(5, 1, 0, 0, rows)))
          .as("%s", rows)
          .isEqualTo(ReportStatus.DIFFERENCES);
    }
  }

  @Test
  void anUnverifiableChunkOutranksDifferences() {
    // Given
    ReportTotals totals = new ReportTotals(2, 2, 1, 0, new RowTotals(1, 1, 1, 1, 0));

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.UNVERIFIABLE);
  }

  @Test
  void aSchemaDriftChunkIsUnverifiable() {
    // Given
    ReportTotals totals = new ReportTotals(2, 1, 0, 1, RowTotals.ZERO);

    // When
    ReportStatus status = ReportStatus.of(totals);

    // Then
    assertThat(status).isEqualTo(ReportStatus.UNVERIFIABLE);
  }
}
