package io.cdccompare.operations.page;

import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.operations.status.StatusReport;
import io.cdccompare.report.read.ReportOutcome;
import io.cdccompare.report.read.TaskReport;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything a report page shows, read at one moment.
 *
 * @param tasks the report as {@code report --keys} shows it (keys capped by {@code --max-keys})
 * @param history every run of every task, from the results topic
 * @param strips the chunk verdicts of the runs the report shows
 * @param status the status page's figures when they were read; empty when not asked for
 * @param explanations the explained keys ({@code --explain N})
 * @param refreshSeconds how often a served page reloads itself; 0 for a written file
 */
public record PageData(
    String topicPrefix,
    Instant writtenAt,
    List<TaskReport> tasks,
    ReportOutcome outcome,
    RunHistory history,
    ChunkStrips strips,
    Optional<StatusReport> status,
    List<RowExplanation> explanations,
    int refreshSeconds) {

  public PageData {
    tasks = List.copyOf(tasks);
    explanations = List.copyOf(explanations);
  }
}
