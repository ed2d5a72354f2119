package io.cdccompare.report.aggregate;

import static io.cdccompare.report.aggregate.ReportDriver.LINES;
import static io.cdccompare.report.aggregate.ReportDriver.ORDERS;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_1;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_2;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_3;
import static io.cdccompare.report.aggregate.ReportDriver.TASK;
import static io.cdccompare.report.aggregate.ReportDriver.counts;
import static io.cdccompare.report.aggregate.ReportDriver.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.report.ReportKey;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The source side of the report entries: source rows, the coverage cycle, NOTHING_COMPARED. */
class ReportCoverageTest {
  private static final String PG = "pg-replica";
  private static final String PG_ORDERS = ReportKey.ofTable(TASK, PG, ORDERS);
  private static final String PG_TASK = ReportKey.ofTask(TASK, PG);

  private final ReportDriver report = new ReportDriver();

  @AfterEach
  void close() {
    report.close();
  }

  @Test
  void aRunWhoseEveryRowWasInFlightComparedNothing() {
    // Given a chunk of 10 rows, all compared on the source (deep 100)
    report.noted(RUN_1, ORDERS, 1, 10, 10, 0, 1);

    // When the target verifies it with every row in flight
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(0, 0, 0, 0, 10)));

    // Then the table and the task compared nothing
    ReportEntry table = report.latest(PG_ORDERS);
    assertThat(List.of(table.getCaptureChunks(), table.getApplyChunks())).containsExactly(1L, 1L);
    assertThat(List.of(table.getSourceRows(), table.getComparedSourceRows()))
        .containsExactly(10L, 10L);
    assertThat(table.getStatus()).isEqualTo(ReportStatus.NOTHING_COMPARED);
    assertThat(report.latest(PG_TASK).getStatus()).isEqualTo(ReportStatus.NOTHING_COMPARED);
  }

  @Test
  void aTaskWithATableThatComparedNothingIsNotInSync() {
    // Given orders compared in sync
    report.noted(RUN_1, ORDERS, 1, 10, 10, 0, 1);
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));

    // When order lines are verified with every row in flight
    report.noted(RUN_1, LINES, 1, 5, 5, 0, 1);
    report.results(result(PG, RUN_1, LINES, 1, 0, 1).setCounts(counts(0, 0, 0, 0, 5)));

    // Then
    assertThat(report.latest(PG_ORDERS).getStatus()).isEqualTo(ReportStatus.IN_SYNC);
    ReportEntry task = report.latest(PG_TASK);
    assertThat(task.getCounts().getMatched()).isEqualTo(10);
    assertThat(List.of(task.getSourceRows(), task.getComparedSourceRows(), task.getCoveredRows()))
        .containsExactly(15L, 15L, 15L);
    assertThat(task.getStatus()).isEqualTo(ReportStatus.NOTHING_COMPARED);
  }

  @Test
  void threeRotatingRunsCoverEveryRow() {
    // Given
    List<Long> covered = new ArrayList<>();

    // When three runs compare slices 0, 1 and 2 of 3 of one chunk of 100 rows
    String[] runs = {RUN_1, RUN_2, RUN_3};
    long[] compared = {34, 33, 33};
    for (int slice = 0; slice < 3; slice++) {
      report.noted(runs[slice], ORDERS, 1, 100, compared[slice], slice, 3);
      report.results(
          result(PG, runs[slice], ORDERS, 1, 0, 1).setCounts(counts(compared[slice], 0, 0, 0, 0)));
      covered.add(report.latest(PG_ORDERS).getCoveredRows());
    }

    // Then the covered rows rise to the source rows
    assertThat(covered).containsExactly(34L, 67L, 100L);
    ReportEntry last = report.latest(PG_ORDERS);
    assertThat(List.of(last.getSourceRows(), last.getComparedSourceRows()))
        .containsExactly(100L, 33L);
    assertThat(List.of(last.getSlice(), last.getSlices())).containsExactly(2, 3);
    assertThat(last.getStatus()).isEqualTo(ReportStatus.IN_SYNC);
    assertThat(report.latest(PG_TASK).getCoveredRows()).isEqualTo(100);
  }

  @Test
  void aRunFirstSeenFromAResultShowsItsSliceOnceNoted() {
    // Given run 1 compared slice 0 of 3
    report.noted(RUN_1, ORDERS, 1, 100, 34, 0, 3);
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(34, 0, 0, 0, 0)));

    // When run 2's result arrives before its note
    report.results(result(PG, RUN_2, ORDERS, 1, 0, 1).setCounts(counts(33, 0, 0, 0, 0)));
    ReportEntry beforeNote = report.latest(PG_ORDERS);
    report.noted(RUN_2, ORDERS, 1, 100, 33, 1, 3);

    // Then the slice is unknown until the note, which then counts run 1's rows in the cycle
    assertThat(beforeNote.getSlices()).isZero();
    assertThat(beforeNote.getCoveredRows()).isZero();
    ReportEntry noted = report.latest(PG_ORDERS);
    assertThat(List.of(noted.getSlice(), noted.getSlices())).containsExactly(1, 3);
    assertThat(noted.getCoveredRows()).isEqualTo(67);
  }

  @Test
  void anEmptyTableIsInSync() {
    // Given the one chunk of an empty table
    report.noted(RUN_1, ORDERS, 1, 0, 0, 0, 1);

    // When the target verifies it
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1));

    // Then
    ReportEntry table = report.latest(PG_ORDERS);
    assertThat(table.getSourceRows()).isZero();
    assertThat(table.getStatus()).isEqualTo(ReportStatus.IN_SYNC);
    assertThat(report.latest(PG_TASK).getStatus()).isEqualTo(ReportStatus.IN_SYNC);
  }
}
