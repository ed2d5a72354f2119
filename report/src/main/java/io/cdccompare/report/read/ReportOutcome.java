package io.cdccompare.report.read;

import io.cdccompare.core.stream.ExitCode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The exit code of a shown report ({@code report}, {@code compare run --wait}), worst first: 4 if a
 * row is UNVERIFIABLE or RESYNC_NEEDED; else 3 if a row has DIFFERENCES; else 5 if a row is
 * IN_PROGRESS, NO_RESULTS or NOTHING_COMPARED (a verified run that compared none of a table's rows
 * proves nothing), a shown task has no entry at all, or nothing is shown; else 0. The reason names
 * the rows that decided it ({@code task/target/table}, {@code task/target} for a target's totals),
 * at most {@value #MAX_NAMED} of each kind. Pure.
 */
public record ReportOutcome(Kind kind, Optional<String> reason) {
  static final int MAX_NAMED = 5;

  /** The outcomes, each with its exit code. */
  public enum Kind {
    IN_SYNC(ExitCode.OK.code()),
    DIFFERENCES(ExitCode.DIFFERENCES.code()),
    UNVERIFIABLE(ExitCode.UNVERIFIABLE.code()),
    INCOMPLETE(ExitCode.INCOMPLETE.code());

    private final int exitCode;

    Kind(int exitCode) {
      this.exitCode = exitCode;
    }

    public int exitCode() {
      return exitCode;
    }
  }

  private static final Set<ShownStatus> UNVERIFIABLE =
      EnumSet.of(ShownStatus.UNVERIFIABLE, ShownStatus.RESYNC_NEEDED);
  private static final Set<ShownStatus> DIFFERENCES = EnumSet.of(ShownStatus.DIFFERENCES);
  private static final Set<ShownStatus> INCOMPLETE =
      EnumSet.of(ShownStatus.IN_PROGRESS, ShownStatus.NO_RESULTS);
  private static final Set<ShownStatus> NOTHING_COMPARED = EnumSet.of(ShownStatus.NOTHING_COMPARED);

  public int exitCode() {
    return kind.exitCode();
  }

  /** The outcome of the shown tasks. */
  public static ReportOutcome of(List<TaskReport> shown) {
    List<String> unverifiable = named(shown, UNVERIFIABLE, true);
    if (!unverifiable.isEmpty()) {
      return new ReportOutcome(Kind.UNVERIFIABLE, reason("unverifiable", unverifiable));
    }
    List<String> differences = named(shown, DIFFERENCES, false);
    if (!differences.isEmpty()) {
      return new ReportOutcome(Kind.DIFFERENCES, reason("differences", differences));
    }
    if (shown.isEmpty()) {
      return new ReportOutcome(
          Kind.INCOMPLETE, Optional.of("the report holds no entry yet: no chunk was verified"));
    }
    List<String> empty = shown.stream().filter(t -> !t.hasEntries()).map(TaskReport::task).toList();
    if (!empty.isEmpty()) {
      return new ReportOutcome(
          Kind.INCOMPLETE,
          Optional.of(
              "no report entry for task "
                  + String.join(", ", empty)
                  + ": no chunk of it was noted, or no verifier has reported it"));
    }
    List<String> reasons = new ArrayList<>();
    List<String> incomplete = named(shown, INCOMPLETE, true);
    if (!incomplete.isEmpty()) {
      reasons.add(reasonText("not every noted chunk is verified yet", incomplete));
    }
    List<String> nothingCompared = named(shown, NOTHING_COMPARED, true);
    if (!nothingCompared.isEmpty()) {
      reasons.add(reasonText("nothing compared", nothingCompared));
    }
    if (!reasons.isEmpty()) {
      return new ReportOutcome(Kind.INCOMPLETE, Optional.of(String.join("; ", reasons)));
    }
    return new ReportOutcome(Kind.IN_SYNC, Optional.empty());
  }

  /**
   * The rows in one of {@code statuses}: the tables of a target, or its totals when none of its
   * tables is (a target without results, or a totals row ahead of its tables).
   */
  private static List<String> named(
      List<TaskReport> shown, Set<ShownStatus> statuses, boolean withStatus) {
    List<String> names = new ArrayList<>();
    for (TaskReport task : shown) {
      for (TargetReport target : task.targets()) {
        List<ReportRow> tables =
            target.tables().stream().filter(r -> statuses.contains(r.status())).toList();
        List<ReportRow> rows =
            tables.isEmpty() && statuses.contains(target.total().status())
                ? List.of(target.total())
                : tables;
        for (ReportRow row : rows) {
          String name =
              task.task() + "/" + target.target() + row.table().map(t -> "/" + t).orElse("");
          names.add(withStatus ? name + " (" + row.status() + ")" : name);
        }
      }
    }
    return names;
  }

  private static Optional<String> reason(String headline, List<String> names) {
    return Optional.of(reasonText(headline, names));
  }

  private static String reasonText(String headline, List<String> names) {
    String shown = String.join(", ", names.subList(0, Math.min(MAX_NAMED, names.size())));
    int more = names.size() - MAX_NAMED;
    return headline + ": " + shown + (more > 0 ? " and " + more + " more" : "");
  }
}
