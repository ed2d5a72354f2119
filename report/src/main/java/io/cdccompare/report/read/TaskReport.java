package io.cdccompare.report.read;

import java.util.List;
import java.util.Objects;

/** What the report shows of one task: one {@link TargetReport} per target. */
public record TaskReport(String task, List<TargetReport> targets) {
  public TaskReport {
    Objects.requireNonNull(task, "task");
    targets = List.copyOf(targets);
  }

  /** False when no target has any entry for the task (every one shows NO_RESULTS). */
  public boolean hasEntries() {
    return targets.stream().anyMatch(t -> t.total().status() != ShownStatus.NO_RESULTS);
  }
}
