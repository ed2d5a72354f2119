package io.cdccompare.demo;

import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.report.read.ReportTable;
import io.cdccompare.report.read.ResultKeys;
import io.cdccompare.report.read.RunWait;
import io.cdccompare.report.read.TaskReport;
import io.cdccompare.report.read.TaskReports;
import io.cdccompare.schemas.avro.ReportEntry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The targets' verdicts on one compare run of the demo, read the way {@code compare run --wait} and
 * {@code report --keys} read them: the run is verified once {@link RunWait} finds no target behind
 * on any of its tables; the report is then built and printed by the same classes as the {@code
 * report} command's. Used from one thread.
 */
final class DemoReport {
  /** Every key is listed: the demo's differences are few. */
  private static final int ALL_KEYS = 0;

  private final TargetsConfig targets;
  private final CompareRun.Summary run;
  private final ReportReader reader;
  private final RunWait wait;
  private List<ReportEntry> entries = List.of();

  private DemoReport(TargetsConfig targets, CompareRun.Summary run) {
    this.targets = targets;
    this.run = run;
    this.reader = targets.reportReader(Duration.ofSeconds(30));
    this.wait =
        new RunWait(
            reader::entries,
            Demo.TASK,
            targets.targetNames(),
            run.tables().stream()
                .map(t -> new RunWait.NotedTable(t.table().toString(), t.runId(), t.chunks()))
                .toList(),
            Duration.ofMillis(500));
  }

  static DemoReport of(TargetsConfig targets, CompareRun.Summary run) {
    return new DemoReport(targets, run);
  }

  /** How far the targets are: chunks verified of the run's chunks, over every target. */
  record Progress(long verified, long expected, String label) {
    boolean complete() {
      return verified == expected;
    }
  }

  /** Reads the report again. */
  Progress refresh() {
    try {
      entries = reader.entries();
    } catch (ReportReader.MissingTopicException notYet) {
      entries = List.of();
    }
    long chunks = run.tables().stream().mapToLong(CompareRun.TableDone::chunks).sum();
    long expected = chunks * targets.targetNames().size();
    long behind = 0;
    List<RunWait.Lag> lags = wait.behind(entries);
    StringBuilder label = new StringBuilder("chunks verified:");
    for (String target : targets.targetNames()) {
      long missing = 0;
      for (RunWait.Lag lag : lags) {
        if (lag.target().equals(target)) {
          missing += lag.table().chunks() - Math.min(lag.verified(), lag.table().chunks());
        }
      }
      behind += missing;
      label
          .append(' ')
          .append(target)
          .append(' ')
          .append(chunks - missing)
          .append('/')
          .append(chunks);
    }
    return new Progress(expected - behind, expected, label.toString());
  }

  /** The task's report as the {@code report} command shows it, with every difference's key. */
  List<TaskReport> report() {
    List<TaskReport> shown = TaskReports.of(entries, Optional.of(Demo.TASK), targets.targetNames());
    ResultKeys keys =
        ResultKeys.of(reader.results(ResultKeys.ofRowsWithDifferences(shown)), ALL_KEYS);
    return TaskReports.withKeys(shown, keys);
  }

  /** One line: each target's status over the run's tables. */
  static String headline(List<TaskReport> report) {
    StringBuilder line = new StringBuilder();
    for (TaskReport task : report) {
      for (var target : task.targets()) {
        var rows = target.total().totals().rows();
        if (line.length() > 0) {
          line.append("; ");
        }
        line.append(
            String.format(
                java.util.Locale.ROOT,
                "target %s: %s, %,d rows matched, %d in flight",
                target.target(),
                rows.hasDifferences() ? rows.differences() + " rows differ" : "in sync",
                rows.matched(),
                rows.inFlight()));
      }
    }
    return line.toString();
  }

  static void print(List<TaskReport> report, PrintWriter out) {
    ReportTable.write(report, out);
    out.flush();
  }
}
