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

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportOutcomeTest {
  private static ReportOutcome outcomeOf(List<String> targets, ReportEntry... entries) {
    return ReportOutcome.of(TaskReports.of(List.of(entries), Optional.empty(), targets));
  }

  private static ReportEntry inSync(String target, String table) {
    return entry(target, table, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 1));
  }

  @Test
  void everyRowInSyncIsZeroWithoutReason() {
    // Given two targets in sync on one table
    // When the outcome is decided
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG, MARIA),
            inSync(PG, null),
            inSync(PG, ORDERS),
            inSync(MARIA, null),
            inSync(MARIA, ORDERS));

    // Then it is 0
    assertThat(outcome.kind()).isEqualTo(ReportOutcome.Kind.IN_SYNC);
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.OK.code());
    assertThat(outcome.reason()).isEmpty();
  }

  @Test
  void differencesOutrankProgressAndNameTheirTable() {
    // Given one table differing on pg and another still in progress on maria
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG, MARIA),
            entry(PG, null, ReportStatus.DIFFERENCES, 4, 4, counts(30, 1, 0, 0, 0)),
            inSync(PG, ORDERS),
            entry(PG, LINES, ReportStatus.DIFFERENCES, 2, 2, counts(10, 1, 0, 0, 0)),
            entry(MARIA, null, ReportStatus.IN_PROGRESS, 4, 3, counts(30, 0, 0, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.IN_PROGRESS, 2, 1, counts(10, 0, 0, 0, 0)));

    // Then it is 3, naming the differing table only
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.DIFFERENCES.code());
    assertThat(outcome.reason()).contains("differences: nightly/pg-replica/public.order_lines");
  }

  @Test
  void unverifiableOutranksDifferences() {
    // Given a table with differences on pg and an unverifiable one on maria
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG, MARIA),
            entry(PG, ORDERS, ReportStatus.DIFFERENCES, 2, 2, counts(10, 0, 1, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.UNVERIFIABLE, 2, 2, counts(10, 0, 0, 0, 0)));

    // Then it is 4
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.UNVERIFIABLE.code());
    assertThat(outcome.reason())
        .contains("unverifiable: nightly/maria-replica/public.orders (UNVERIFIABLE)");
  }

  @Test
  void resyncNeededIsUnverifiable() {
    // Given a target that needs a resync, another in sync
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG, MARIA),
            inSync(PG, ORDERS),
            entry(MARIA, ORDERS, ReportStatus.RESYNC_NEEDED, 2, 1, counts(10, 0, 0, 0, 0)));

    // Then it is 4
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.UNVERIFIABLE.code());
    assertThat(outcome.reason())
        .contains("unverifiable: nightly/maria-replica/public.orders (RESYNC_NEEDED)");
  }

  @Test
  void aTableInProgressIsIncomplete() {
    // Given one target behind on one table
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG),
            entry(PG, null, ReportStatus.IN_PROGRESS, 3, 2, counts(20, 0, 0, 0, 0)),
            entry(PG, ORDERS, ReportStatus.IN_PROGRESS, 3, 2, counts(20, 0, 0, 0, 0)));

    // Then it is 5
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason())
        .contains(
            "not every noted chunk is verified yet: nightly/pg-replica/public.orders (IN_PROGRESS)");
  }

  @Test
  void anExpectedTargetWithoutResultsIsIncomplete() {
    // Given pg in sync, and maria named by the targets file but without any entry
    ReportOutcome outcome = outcomeOf(List.of(PG, MARIA), inSync(PG, null), inSync(PG, ORDERS));

    // Then it is 5, naming maria
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason())
        .contains("not every noted chunk is verified yet: nightly/maria-replica (NO_RESULTS)");
  }

  @Test
  void aTaskWithoutAnyEntryIsIncomplete() {
    // Given the task asked for has no entry (another task is in sync)
    List<TaskReport> shown =
        TaskReports.of(List.of(entry("other", PG, ORDERS).build()), Optional.of(TASK), List.of(PG));

    // When the outcome is decided
    ReportOutcome outcome = ReportOutcome.of(shown);

    // Then it is 5 and says so
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason())
        .hasValueSatisfying(r -> assertThat(r).startsWith("no report entry for task nightly"));
  }

  @Test
  void anEmptyReportIsIncomplete() {
    // Given no entry at all / When the outcome is decided
    ReportOutcome outcome = ReportOutcome.of(List.of());

    // Then it is 5
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason()).hasValueSatisfying(r -> assertThat(r).contains("no entry"));
  }

  @Test
  void theReasonNamesAtMostFiveRows() {
    // Given seven differing tables
    List<ReportEntry> entries = new ArrayList<>();
    for (int i = 1; i <= 7; i++) {
      entries.add(entry(PG, "public.t" + i, ReportStatus.DIFFERENCES, 1, 1, counts(0, 1, 0, 0, 0)));
    }

    // When the outcome is decided
    ReportOutcome outcome = outcomeOf(List.of(PG), entries.toArray(ReportEntry[]::new));

    // Then five are named and two counted
    assertThat(outcome.reason())
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .contains("nightly/pg-replica/public.t5")
                    .doesNotContain("public.t6")
                    .endsWith(" and 2 more"));
  }

  @Test
  void aTableThatComparedNothingIsIncompleteNamingIt() {
    // Given every chunk verified on pg, but every row of orders was in flight
    ReportOutcome outcome =
        outcomeOf(List.of(PG), nothingCompared(PG, null, 10), nothingCompared(PG, ORDERS, 10));

    // Then it is 5, naming the table
    assertThat(outcome.kind()).isEqualTo(ReportOutcome.Kind.INCOMPLETE);
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason())
        .contains("nothing compared: nightly/pg-replica/public.orders (NOTHING_COMPARED)");
  }

  @Test
  void differencesOutrankATableThatComparedNothing() {
    // Given pg differs on order lines, and maria compared none of the rows of orders
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG, MARIA),
            entry(PG, LINES, ReportStatus.DIFFERENCES, 2, 2, counts(10, 1, 0, 0, 0)),
            nothingCompared(MARIA, ORDERS, 10));

    // Then it is 3
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.DIFFERENCES.code());
    assertThat(outcome.reason()).contains("differences: nightly/pg-replica/public.order_lines");
  }

  @Test
  void progressAndATableThatComparedNothingAreBothNamed() {
    // Given pg still behind on order lines, and orders compared nothing
    ReportOutcome outcome =
        outcomeOf(
            List.of(PG),
            entry(PG, LINES, ReportStatus.IN_PROGRESS, 2, 1, counts(10, 0, 0, 0, 0)),
            nothingCompared(PG, ORDERS, 10));

    // Then it is 5 and the reason names both
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.INCOMPLETE.code());
    assertThat(outcome.reason())
        .contains(
            "not every noted chunk is verified yet: nightly/pg-replica/public.order_lines"
                + " (IN_PROGRESS); nothing compared: nightly/pg-replica/public.orders"
                + " (NOTHING_COMPARED)");
  }
}
