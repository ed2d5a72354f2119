package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.LINES;
import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.nothingCompared;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.SourceRows;
import io.cdccompare.schemas.avro.ReportStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskReportsTest {

  @Test
  void tasksAndTablesInNameOrderTargetsInFileOrderThenOthers() {
    // Given entries of two tasks, a target the file does not name, tables out of order
    List<TaskReport> shown =
        TaskReports.of(
            List.of(
                entry(TASK, PG, ORDERS).build(),
                entry(TASK, PG, LINES).build(),
                entry(TASK, "old-replica", ORDERS).build(),
                entry(TASK, PG, null).build(),
                entry("alpha", PG, ORDERS).build()),
            Optional.empty(),
            List.of(PG, MARIA));

    // Then tasks by name; per task the file's targets in order (maria without results), then
    // the other target; tables by name
    assertThat(shown).extracting(TaskReport::task).containsExactly("alpha", TASK);
    TaskReport nightly = shown.get(1);
    assertThat(nightly.targets())
        .extracting(TargetReport::target)
        .containsExactly(PG, MARIA, "old-replica");
    assertThat(nightly.targets().get(0).tables())
        .extracting(r -> r.table().orElseThrow())
        .containsExactly(LINES, ORDERS);
    assertThat(nightly.targets().get(1).total().status()).isEqualTo(ShownStatus.NO_RESULTS);
    assertThat(nightly.targets().get(1).tables()).isEmpty();
    assertThat(shown.get(0).targets().get(1).total().status()).isEqualTo(ShownStatus.NO_RESULTS);
  }

  @Test
  void aTaskAskedForKeepsOnlyItsEntriesAndShowsEvenWithoutAny() {
    // Given entries of another task only
    // When a task is asked for
    List<TaskReport> shown =
        TaskReports.of(List.of(entry("alpha", PG, ORDERS).build()), Optional.of(TASK), List.of(PG));

    // Then only that task shows, its target without results
    assertThat(shown).singleElement().satisfies(t -> assertThat(t.task()).isEqualTo(TASK));
    assertThat(shown.get(0).hasEntries()).isFalse();
  }

  @Test
  void aRowCarriesTheEntrysFields() {
    // Given one table entry
    List<TaskReport> shown =
        TaskReports.of(
            List.of(entry(PG, ORDERS, ReportStatus.DIFFERENCES, 5, 4, counts(40, 1, 2, 3, 4))),
            Optional.empty(),
            List.of(PG));

    // Then its row has noted = capture, verified = apply and the counts
    ReportRow row = shown.get(0).targets().get(0).tables().get(0);
    assertThat(row.noted()).isEqualTo(5);
    assertThat(row.verified()).isEqualTo(4);
    assertThat(row.totals().rows()).isEqualTo(new RowTotals(40, 1, 2, 3, 4));
    assertThat(row.status()).isEqualTo(ShownStatus.DIFFERENCES);
    assertThat(row.runId()).contains(ReportFixtures.RUN);
    assertThat(row.taskKind()).contains("FULL");
  }

  @Test
  void aMissingTotalsEntryIsTheSumOfTheTables() {
    // Given two table entries of a target and no totals entry
    List<TaskReport> shown =
        TaskReports.of(
            List.of(
                entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(10, 0, 0, 0, 0)),
                entry(PG, LINES, ReportStatus.IN_PROGRESS, 3, 1, counts(5, 0, 0, 0, 1))),
            Optional.empty(),
            List.of(PG));

    // Then the totals row sums them, and its status is the sum's
    ReportRow total = shown.get(0).targets().get(0).total();
    assertThat(total.table()).isEmpty();
    assertThat(total.noted()).isEqualTo(5);
    assertThat(total.verified()).isEqualTo(3);
    assertThat(total.totals().rows()).isEqualTo(new RowTotals(15, 0, 0, 0, 1));
    assertThat(total.status()).isEqualTo(ShownStatus.IN_PROGRESS);
  }

  @Test
  void aMissingTotalsEntryOfATableThatComparedNothingIsNotInSync() {
    // Given orders in sync and order lines that compared nothing, without a totals entry
    List<TaskReport> shown =
        TaskReports.of(
            List.of(
                entry(TASK, PG, ORDERS)
                    .setCaptureChunks(2)
                    .setApplyChunks(2)
                    .setCounts(counts(20, 0, 0, 0, 0))
                    .setSourceRows(20)
                    .setComparedSourceRows(20)
                    .setCoveredRows(20)
                    .setSlices(1)
                    .build(),
                nothingCompared(PG, LINES, 7)),
            Optional.empty(),
            List.of(PG));

    // Then the totals row sums the source rows and compared nothing
    ReportRow total = shown.get(0).targets().get(0).total();
    assertThat(total.totals().source()).isEqualTo(new SourceRows(27, 27, 27));
    assertThat(total.status()).isEqualTo(ShownStatus.NOTHING_COMPARED);
  }
}
