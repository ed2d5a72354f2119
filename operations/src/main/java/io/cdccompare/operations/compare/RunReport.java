package io.cdccompare.operations.compare;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.report.read.ReportOutcome;
import io.cdccompare.report.read.ReportTable;
import io.cdccompare.report.read.RunWait;
import io.cdccompare.report.read.TaskReport;
import io.cdccompare.report.read.TaskReports;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The end of {@code compare run --wait}: waits ({@link RunWait}), prints the task's report as
 * {@code report} does (the task's targets, NO_RESULTS for one without an entry) and gives the exit
 * code — the report's ({@link ReportOutcome}) once every target caught up or one needs a resync, 5
 * with a line naming what is behind when the wait timed out, none when it was stopped.
 */
public final class RunReport {
  /** How often the report is read while waiting. */
  public static final Duration WAIT_POLL = Duration.ofSeconds(1);

  private RunReport() {}

  /**
   * The wait of {@code compare run --wait} for the run's noted {@code tables}: until every target
   * of the task's {@code targets} verified every chunk, read from the task's report topic.
   */
  public static RunWait waitFor(CompareConfig task, List<RunWait.NotedTable> tables) {
    return new RunWait(
        TaskReportReader.of(task)::entries, task.taskName(), task.targets(), tables, WAIT_POLL);
  }

  /**
   * @return the exit code; empty when the wait was stopped (Ctrl-C) before it ended
   */
  public static OptionalInt await(
      RunWait wait,
      String task,
      List<String> targets,
      Duration timeout,
      PrintWriter out,
      PrintWriter err)
      throws InterruptedException {
    err.printf(
        "waiting up to %d s until %s verified every noted chunk%n",
        timeout.toSeconds(), String.join(", ", targets));
    err.flush();
    RunWait.Result result =
        wait.await(
            timeout,
            line -> {
              err.println(line);
              err.flush();
            });
    if (result.ending() == RunWait.Ending.STOPPED) {
      return OptionalInt.empty();
    }
    List<TaskReport> shown = TaskReports.of(result.entries(), Optional.of(task), targets);
    ReportTable.write(shown, out);
    if (result.ending() == RunWait.Ending.TIMED_OUT) {
      err.println(
          "cdc-compare: not every noted chunk was verified within "
              + timeout.toSeconds()
              + " s: "
              + RunWait.describe(result.behind()));
      err.flush();
      return OptionalInt.of(ExitCode.INCOMPLETE.code());
    }
    ReportOutcome outcome = ReportOutcome.of(shown);
    printReason(err, outcome);
    return OptionalInt.of(outcome.exitCode());
  }

  /** The outcome's reason, one line, when it is not 0. */
  public static void printReason(PrintWriter err, ReportOutcome outcome) {
    outcome
        .reason()
        .ifPresent(
            reason -> {
              err.println("cdc-compare: " + reason);
              err.flush();
            });
  }
}
