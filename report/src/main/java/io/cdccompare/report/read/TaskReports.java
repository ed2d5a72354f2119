package io.cdccompare.report.read;

import io.cdccompare.core.report.ReportStatus;
import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.schemas.avro.ReportEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Groups the latest report entries into what the report shows: tasks in name order, each with the
 * expected targets in their order (a target without an entry for the task shows NO_RESULTS), then
 * any other target that reported the task, in name order; per target its totals and its tables in
 * name order. Pure.
 */
public final class TaskReports {
  private TaskReports() {}

  /**
   * @param entries the latest entry of every key of the report topic
   * @param task the one task to show; empty for every task that has an entry
   * @param targets the targets expected to report every shown task, in order
   */
  public static List<TaskReport> of(
      List<ReportEntry> entries, Optional<String> task, List<String> targets) {
    Map<String, List<ReportEntry>> byTask = new TreeMap<>();
    for (ReportEntry entry : entries) {
      if (task.isEmpty() || task.get().equals(entry.getTask())) {
        byTask.computeIfAbsent(entry.getTask(), t -> new ArrayList<>()).add(entry);
      }
    }
    task.ifPresent(t -> byTask.putIfAbsent(t, List.of()));
    List<TaskReport> reports = new ArrayList<>();
    byTask.forEach((name, taskEntries) -> reports.add(taskReport(name, taskEntries, targets)));
    return reports;
  }

  private static TaskReport taskReport(
      String task, List<ReportEntry> entries, List<String> expected) {
    Map<String, ReportEntry> totals = new LinkedHashMap<>();
    Map<String, Map<String, ReportRow>> tables = new LinkedHashMap<>();
    Set<String> others = new TreeSet<>();
    for (ReportEntry entry : entries) {
      String target = entry.getTarget();
      if (!expected.contains(target)) {
        others.add(target);
      }
      if (entry.getTable() == null) {
        totals.put(target, entry);
      } else {
        tables
            .computeIfAbsent(target, t -> new TreeMap<>())
            .put(entry.getTable(), ReportRow.of(entry));
      }
    }
    Set<String> shown = new LinkedHashSet<>(expected);
    shown.addAll(others);
    List<TargetReport> targets = new ArrayList<>();
    for (String target : shown) {
      List<ReportRow> rows = List.copyOf(tables.getOrDefault(target, Map.of()).values());
      ReportEntry total = totals.get(target);
      ReportRow totalRow;
      if (total != null) {
        totalRow = ReportRow.of(total);
      } else if (!rows.isEmpty()) {
        totalRow = sumOf(rows);
      } else {
        totalRow = ReportRow.noResults();
      }
      targets.add(new TargetReport(target, totalRow, rows));
    }
    return new TaskReport(task, targets);
  }

  /**
   * The totals of a target whose task entry is missing (never written by the aggregation, which
   * writes it with every table entry; kept so that such a report still adds up): the tables summed.
   */
  static ReportRow sumOf(List<ReportRow> tables) {
    ReportTotals sum = ReportTotals.EMPTY;
    for (ReportRow row : tables) {
      sum = sum.plus(row.totals());
    }
    boolean resync = tables.stream().anyMatch(r -> r.status() == ShownStatus.RESYNC_NEEDED);
    ShownStatus status =
        resync ? ShownStatus.RESYNC_NEEDED : ShownStatus.valueOf(ReportStatus.of(sum).name());
    ReportRow newest =
        tables.stream()
            .max(Comparator.comparing(r -> r.runId().orElse("")))
            .orElseThrow(() -> new IllegalArgumentException("no table to sum"));
    Optional<Instant> lastUpdate =
        tables.stream()
            .map(ReportRow::lastUpdate)
            .flatMap(Optional::stream)
            .max(Comparator.naturalOrder());
    return new ReportRow(
        Optional.empty(),
        newest.runId(),
        newest.taskKind(),
        newest.slice(),
        status,
        sum,
        lastUpdate,
        Optional.empty(),
        List.of());
  }

  /** The reports with every row that has differences given its keys by {@code keysOf}. */
  public static List<TaskReport> withKeys(List<TaskReport> reports, KeysOf keysOf) {
    return withTableRows(
        reports,
        ReportRow::hasDifferences,
        (task, target, row) ->
            row.withKeys(
                Objects.requireNonNull(
                    keysOf.keys(task, target, row.table().orElseThrow(), row.runId().get()),
                    "keys")));
  }

  /**
   * The reports with every table row that has a run given the recheck attempts of that run by
   * {@code rechecksOf}; the targets' totals rows are left as they are.
   */
  public static List<TaskReport> withRechecks(List<TaskReport> reports, RechecksOf rechecksOf) {
    return withTableRows(
        reports,
        row -> true,
        (task, target, row) ->
            row.withRechecks(
                Objects.requireNonNull(
                    rechecksOf.rechecks(task, target, row.table().orElseThrow(), row.runId().get()),
                    "rechecks")));
  }

  /** A table row of a task on a target, changed. */
  @FunctionalInterface
  private interface RowChange {
    ReportRow apply(String task, String target, ReportRow row);
  }

  /** The reports with each table row that has a run and {@code wanted} holds for changed. */
  private static List<TaskReport> withTableRows(
      List<TaskReport> reports, java.util.function.Predicate<ReportRow> wanted, RowChange change) {
    List<TaskReport> out = new ArrayList<>();
    for (TaskReport report : reports) {
      List<TargetReport> targets = new ArrayList<>();
      for (TargetReport target : report.targets()) {
        List<ReportRow> tables = new ArrayList<>();
        for (ReportRow row : target.tables()) {
          tables.add(
              row.runId().isPresent() && wanted.test(row)
                  ? change.apply(report.task(), target.target(), row)
                  : row);
        }
        targets.add(new TargetReport(target.target(), target.total(), tables));
      }
      out.add(new TaskReport(report.task(), targets));
    }
    return out;
  }

  /** The recheck attempts of one run of one table on one target, in attempt order. */
  @FunctionalInterface
  public interface RechecksOf {
    List<RecheckAttempt> rechecks(String task, String target, String table, String runId);
  }

  /** The difference keys of one table of one run on one target. */
  @FunctionalInterface
  public interface KeysOf {
    DifferenceKeys keys(String task, String target, String table, String runId);
  }
}
