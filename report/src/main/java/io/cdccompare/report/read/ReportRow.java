package io.cdccompare.report.read;

import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.RunSlice;
import io.cdccompare.core.report.SourceRows;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.RowCounts;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of a shown report: a table of a task on a target, or the target's totals over every table
 * of the task ({@code table} empty). A target without results has a totals row with status {@link
 * ShownStatus#NO_RESULTS}, no run and zero totals. Immutable.
 *
 * @param table the schema-qualified source table; empty for the target's totals
 * @param runId the run the totals describe; empty when none was noted or for NO_RESULTS
 * @param taskKind {@code FULL}, {@code INCREMENTAL}, …; empty like {@code runId}
 * @param slice the run's slice of every chunk; empty while unknown (no noted chunk of the run read
 *     yet, an entry of an older report aggregation) or for NO_RESULTS. For a target's totals, that
 *     of the newest run of its tables
 * @param totals noted chunks ({@code captureChunks}), verified chunks ({@code applyChunks}),
 *     unverifiable and schema drift chunks, row outcomes, source rows read, compared and covered
 * @param lastUpdate when the totals last changed; empty for NO_RESULTS
 * @param keys the difference keys, when asked for and the row has differences
 * @param rechecks the recheck attempts of the row's run on its target and table, in attempt order;
 *     empty when there is none or they were not asked for
 */
public record ReportRow(
    Optional<String> table,
    Optional<String> runId,
    Optional<String> taskKind,
    Optional<RunSlice> slice,
    ShownStatus status,
    ReportTotals totals,
    Optional<Instant> lastUpdate,
    Optional<DifferenceKeys> keys,
    List<RecheckAttempt> rechecks) {

  public ReportRow {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(taskKind, "taskKind");
    Objects.requireNonNull(slice, "slice");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(totals, "totals");
    Objects.requireNonNull(lastUpdate, "lastUpdate");
    Objects.requireNonNull(keys, "keys");
    rechecks = List.copyOf(rechecks);
  }

  /** The totals row of a target that has no entry for the task. */
  public static ReportRow noResults() {
    return new ReportRow(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        ShownStatus.NO_RESULTS,
        ReportTotals.EMPTY,
        Optional.empty(),
        Optional.empty(),
        List.of());
  }

  /** The row of a report entry as read from the report topic. */
  public static ReportRow of(ReportEntry entry) {
    RowCounts c = entry.getCounts();
    ShownStatus status = ShownStatus.of(entry.getStatus());
    ReportTotals totals =
        new ReportTotals(
            entry.getCaptureChunks(),
            entry.getApplyChunks(),
            entry.getUnverifiableChunks(),
            entry.getSchemaDriftChunks(),
            new RowTotals(
                c.getMatched(), c.getFailed(), c.getMissed(), c.getExtra(), c.getInFlight()),
            new SourceRows(
                entry.getSourceRows(), entry.getComparedSourceRows(), entry.getCoveredRows()),
            status == ShownStatus.NOTHING_COMPARED ? 1 : 0);
    return new ReportRow(
        Optional.ofNullable(entry.getTable()),
        Optional.ofNullable(entry.getRunId()),
        Optional.ofNullable(entry.getTaskKind()).map(Enum::name),
        entry.getSlices() > 0
            ? Optional.of(new RunSlice(entry.getSlice(), entry.getSlices()))
            : Optional.empty(),
        status,
        totals,
        Optional.of(entry.getLastUpdate()),
        Optional.empty(),
        List.of());
  }

  /** This row with the keys of its differences. */
  public ReportRow withKeys(DifferenceKeys differenceKeys) {
    return new ReportRow(
        table,
        runId,
        taskKind,
        slice,
        status,
        totals,
        lastUpdate,
        Optional.of(differenceKeys),
        rechecks);
  }

  /** This row with the recheck attempts of its run. */
  public ReportRow withRechecks(List<RecheckAttempt> attempts) {
    return new ReportRow(table, runId, taskKind, slice, status, totals, lastUpdate, keys, attempts);
  }

  /**
   * The share of the source rows the coverage cycle compared, 0 to 1 ({@link
   * SourceRows#coverage()}); empty while the run's slice is unknown and for NO_RESULTS.
   */
  public Optional<Double> coverage() {
    return slice.map(s -> totals.source().coverage());
  }

  /** Chunks noted by the compare producer for the run (the report's {@code capture}). */
  public long noted() {
    return totals.captureChunks();
  }

  /** Chunks with a complete verdict on the target (the report's {@code apply}). */
  public long verified() {
    return totals.applyChunks();
  }

  public boolean hasDifferences() {
    return totals.rows().hasDifferences();
  }
}
