package io.cdccompare.operations.compare;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.nothingCompared;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.report.read.RunWait;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RunReportTest {
  private static final List<String> TARGETS = List.of(PG, MARIA);
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private OptionalInt await(List<ReportEntry> report, Duration timeout) throws Exception {
    RunWait wait =
        new RunWait(
            () -> report,
            TASK,
            TARGETS,
            List.of(new RunWait.NotedTable(ORDERS, RUN, 2)),
            Duration.ofMillis(10));
    return RunReport.await(
        wait, TASK, TARGETS, timeout, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void aRunVerifiedInSyncOnEveryTargetPrintsTheReportAndIsZero() throws Exception {
    // Given both targets verified both chunks without a difference
    List<ReportEntry> report =
        List.of(
            entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)));

    // When the run waits
    OptionalInt exit = await(report, Duration.ofSeconds(30));

    // Then exit 0, the task's report on standard output, only the start line on standard error
    assertThat(exit).hasValue(ExitCode.OK.code());
    assertThat(out.toString())
        .startsWith("task nightly\n")
        .contains("maria-replica  public.orders");
    assertThat(err.toString().lines())
        .containsExactly(
            "waiting up to 30 s until pg-replica, maria-replica verified every noted chunk");
  }

  @Test
  void aRunVerifiedWithDifferencesIsThree() throws Exception {
    // Given maria verified both chunks with a missed row
    List<ReportEntry> report =
        List.of(
            entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.DIFFERENCES, 2, 2, counts(19, 0, 1, 0, 0)));

    // When the run waits / Then the report's code and reason
    assertThat(await(report, Duration.ofSeconds(30))).hasValue(ExitCode.DIFFERENCES.code());
    assertThat(err.toString())
        .endsWith("cdc-compare: differences: nightly/maria-replica/public.orders\n");
  }

  @Test
  void aTargetStillBehindAtTheTimeoutIsFiveNamingIt() throws Exception {
    // Given maria verified 1 of the 2 chunks and never more
    List<ReportEntry> report =
        List.of(
            entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.IN_PROGRESS, 2, 1, counts(10, 0, 0, 0, 0)));

    // When the run waits one second
    OptionalInt exit = await(report, Duration.ofSeconds(1));

    // Then exit 5, the report printed, a progress line and a last line naming what is behind
    assertThat(exit).hasValue(ExitCode.INCOMPLETE.code());
    assertThat(out.toString()).contains("IN_PROGRESS");
    assertThat(err.toString().lines())
        .containsExactly(
            "waiting up to 1 s until pg-replica, maria-replica verified every noted chunk",
            "waiting for the report: 3 of 4 chunk verdicts on pg-replica, maria-replica; behind:"
                + " maria-replica/public.orders 1 of 2 chunks",
            "cdc-compare: not every noted chunk was verified within 1 s:"
                + " maria-replica/public.orders 1 of 2 chunks");
  }

  @Test
  void aTargetThatNeedsAResyncIsFour() throws Exception {
    // Given maria reports RESYNC_NEEDED on the run's table
    List<ReportEntry> report =
        List.of(
            entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
            entry(MARIA, ORDERS, ReportStatus.RESYNC_NEEDED, 2, 1, counts(10, 0, 0, 0, 0)));

    // When the run waits / Then it ends with the report's 4 long before the timeout
    assertThat(await(report, Duration.ofHours(1))).hasValue(ExitCode.UNVERIFIABLE.code());
    assertThat(err.toString())
        .endsWith(
            "cdc-compare: unverifiable: nightly/maria-replica/public.orders (RESYNC_NEEDED)\n");
  }

  @Test
  void aRunThatComparedNothingOnATargetIsFiveWithoutWaitingForTheTimeout() throws Exception {
    // Given maria verified both chunks, but every row was in flight
    List<ReportEntry> report =
        List.of(
            entry(PG, ORDERS, ReportStatus.IN_SYNC, 2, 2, counts(20, 0, 0, 0, 0)),
            ReportEntry.newBuilder(nothingCompared(MARIA, ORDERS, 20))
                .setCaptureChunks(2)
                .setApplyChunks(2)
                .build());

    // When the run waits / Then it ends with 5 long before the timeout, naming the table
    assertThat(await(report, Duration.ofHours(1))).hasValue(ExitCode.INCOMPLETE.code());
    assertThat(out.toString()).contains("NOTHING_COMPARED");
    assertThat(err.toString())
        .endsWith(
            "cdc-compare: nothing compared: nightly/maria-replica/public.orders"
                + " (NOTHING_COMPARED)\n");
  }
}
