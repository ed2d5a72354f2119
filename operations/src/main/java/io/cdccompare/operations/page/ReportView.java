package io.cdccompare.operations.page;

import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.explain.Explainer;
import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.operations.status.StatusCollector;
import io.cdccompare.operations.status.StatusReport;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.report.read.DifferenceKeys;
import io.cdccompare.report.read.RecheckAttempts;
import io.cdccompare.report.read.ReportOutcome;
import io.cdccompare.report.read.ReportRow;
import io.cdccompare.report.read.ResultKeys;
import io.cdccompare.report.read.TargetReport;
import io.cdccompare.report.read.TaskReport;
import io.cdccompare.report.read.TaskReports;
import io.cdccompare.schemas.avro.ChunkResult;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The report as {@code report} shows it, read at one moment: the tasks (with their difference keys
 * and recheck attempts when asked), the outcome, and for a page also the run history, the chunk
 * strips, the explanations of the first keys and the status page's figures. The results topic is
 * read once, each result fed to the history and the strips as it comes, so only the difference keys
 * are held.
 */
public record ReportView(
    List<TaskReport> tasks,
    ReportOutcome outcome,
    RunHistory history,
    ChunkStrips strips,
    List<RowExplanation> explanations) {

  /**
   * What to read.
   *
   * @param keys read the difference keys and recheck attempts
   * @param maxKeys keys per kind and table at most (0: all)
   * @param explain keys explained per table and target (the first ones), 0 for none
   * @param page also read the run history and the chunk strips
   */
  public record Options(
      Optional<String> task, boolean keys, int maxKeys, int explain, boolean page) {}

  /**
   * Reads the view.
   *
   * @throws SQLException when a key to explain cannot be read on its source or target
   */
  public static ReportView read(
      TargetsConfig targets, ReportReader reader, Options options, Duration timeout)
      throws SQLException {
    List<TaskReport> shown =
        TaskReports.of(reader.entries(), options.task(), targets.targetNames());
    RunHistory history = new RunHistory();
    ChunkStrips strips = new ChunkStrips();
    if (options.page()) {
      for (TaskReport task : shown) {
        for (TargetReport target : task.targets()) {
          for (ReportRow row : target.tables()) {
            if (row.table().isPresent() && row.runId().isPresent()) {
              strips.want(task.task(), row.runId().get(), row.table().get(), target.target());
            }
          }
        }
      }
    }
    boolean keys = options.keys() || options.explain() > 0;
    if (keys || options.page()) {
      Predicate<ChunkResult> differences =
          keys ? ResultKeys.ofRowsWithDifferences(shown) : r -> false;
      Predicate<ChunkResult> rechecks = keys ? RecheckAttempts.ofRows(shown) : r -> false;
      List<ChunkResult> results =
          reader.results(
              r -> {
                if (options.page()) {
                  history.add(r);
                  strips.add(r);
                }
                return differences.test(r) || rechecks.test(r);
              });
      if (keys) {
        shown =
            TaskReports.withKeys(
                shown,
                ResultKeys.of(results.stream().filter(differences).toList(), options.maxKeys()));
        shown =
            TaskReports.withRechecks(
                shown,
                RecheckAttempts.of(results.stream().filter(rechecks).toList(), options.maxKeys()));
      }
    }
    List<RowExplanation> explanations = new ArrayList<>();
    if (options.explain() > 0) {
      try (Explainer explainer = new Explainer(targets, reader, timeout)) {
        for (TaskReport task : shown) {
          for (TargetReport target : task.targets()) {
            for (ReportRow row : target.tables()) {
              if (row.table().isEmpty() || row.runId().isEmpty() || row.keys().isEmpty()) {
                continue;
              }
              DifferenceKeys k = row.keys().get();
              List<String> first = new ArrayList<>(k.failed().shown());
              first.addAll(k.missed().shown());
              first.addAll(k.extra().shown());
              for (String key : first.subList(0, Math.min(options.explain(), first.size()))) {
                explanations.add(
                    explainer.explain(
                        new Explainer.Request(
                            target.target(), row.table().get(), key, row.runId())));
              }
            }
          }
        }
      }
    }
    return new ReportView(shown, ReportOutcome.of(shown), history, strips, explanations);
  }

  /** The page of this view, written now. */
  public PageData page(String topicPrefix, Optional<StatusReport> status, int refreshSeconds) {
    return new PageData(
        topicPrefix,
        java.time.Instant.now(),
        tasks,
        outcome,
        history,
        strips,
        status,
        explanations,
        refreshSeconds);
  }

  /** The status page's figures now, each read bounded by {@code timeout}. */
  public static StatusReport status(TargetsConfig targets, Duration timeout) {
    return new StatusCollector(targets, timeout, Clock.systemUTC()).collect();
  }
}
