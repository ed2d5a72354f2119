package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.compare.RunReport;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.metrics.HealthCheck;
import io.cdccompare.operations.metrics.ProgramMetrics;
import io.cdccompare.operations.recheck.Rechecks;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareMeters;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.producer.compare.IncrementalRun;
import io.cdccompare.report.read.RunWait;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare run -c FILE [--restart] [--wait [--wait-timeout SECONDS]]}: runs a
 * full compare task to its end. Ctrl-C stops it after the chunk being read is closed; the next run
 * continues after it. With {@code --wait} it then waits until every target of the task's {@code
 * targets} key verified every noted chunk of the run ({@link RunReport}), prints the task's report,
 * then (with {@code recheck.in.flight}, the default) rechecks the run's in-flight keys up to {@code
 * recheck.attempts} times and prints what each ended as ({@link Rechecks}); it exits with the worse
 * of the report's and the rechecks' codes.
 *
 * <p>Exit codes: 0 every table noted to its end (with {@code --wait}: and in sync on every target),
 * 1 failure, 2 bad configuration, 130 stopped by Ctrl-C before the end; with {@code --wait} also 3
 * differences, 4 unverifiable or resync needed, 5 the wait timed out or a table compared none of
 * its rows (NOTHING_COMPARED, at once: every chunk is verified).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a compare task: full (every table in key-ordered chunks, each chunk hashed and"
            + " noted; a stopped task continues where it stopped) or incremental (only the keys"
            + " changed since the table's last completed run). Keys: docs/reference/configuration.md.")
final class CompareRunCommand implements Callable<Integer> {
  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "Task file (Java properties, Kafka-style keys).")
  Path config;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      description = "full or incremental (default: the task file's task.kind, itself full).")
  String kind;

  @Option(
      names = "--restart",
      description = "Start a new run even if the last one stopped before its end.")
  boolean restart;

  @Option(
      names = "--wait",
      description =
          "After the run, wait until every target of the task's 'targets' key verified every"
              + " noted chunk, print the report and exit with its code (0, 3, 4; 5 on timeout"
              + " or when a table compared nothing).")
  boolean waitForReport;

  @Option(
      names = "--wait-timeout",
      paramLabel = "SECONDS",
      defaultValue = "3600",
      description = "Longest --wait waits for the targets (default ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @Mixin MetricsPortOption metricsPort;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private ProgramMetrics metrics;

  @Override
  public Integer call() throws Exception {
    OptionChecks.requireSeconds(spec, "--wait-timeout", waitTimeoutSeconds);
    CompareConfig task = CompareConfig.load(config);
    if (waitForReport) {
      OptionChecks.requireTargets(config, task, "--wait");
    }
    TaskKind runKind = runKind(task);
    AtomicReference<Runnable> stopRun = new AtomicReference<>(() -> {});
    AtomicReference<RunWait> waiting = new AtomicReference<>();
    AtomicReference<Rechecks> rechecking = new AtomicReference<>();
    try (StopHook hook =
            StopHook.install(
                "cdc-compare-compare-stop",
                () -> {
                  stopRun.get().run();
                  Optional.ofNullable(waiting.get()).ifPresent(RunWait::stop);
                  Optional.ofNullable(rechecking.get()).ifPresent(Rechecks::stop);
                });
        ProgramMetrics served = metricsPort.open().serve(HealthCheck.alwaysHealthy())) {
      metrics = served;
      Noted noted =
          runKind == TaskKind.INCREMENTAL ? incremental(task, stopRun) : full(task, stopRun);
      if (!noted.complete()) {
        return ExitCode.STOPPED.code();
      }
      if (!waitForReport) {
        return ExitCode.OK.code();
      }
      int reported = awaitReport(task, noted.tables(), waiting);
      boolean verified = reported == ExitCode.OK.code() || reported == ExitCode.DIFFERENCES.code();
      if (!verified || !task.recheckInFlight()) {
        return reported;
      }
      return ExitCode.worse(reported, recheckInFlight(task, noted.tables(), rechecking));
    }
  }

  /** What a run noted: per table its run and chunks, and whether it ran to its end. */
  private record Noted(List<RunWait.NotedTable> tables, boolean complete) {}

  /** The run's kind: {@code --kind}, else the task file's {@code task.kind}. */
  private TaskKind runKind(CompareConfig task) {
    TaskKind runKind;
    if (kind == null) {
      runKind = task.kind();
    } else if (kind.equals("full")) {
      runKind = TaskKind.FULL;
    } else if (kind.equals("incremental")) {
      runKind = TaskKind.INCREMENTAL;
    } else {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--kind must be full or incremental, was '" + kind + "'");
    }
    if (runKind == TaskKind.INCREMENTAL && restart) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--restart starts a full run over; an incremental run compares the keys changed since"
              + " the last completed run");
    }
    return runKind;
  }

  /** A full run of every table, continued after its last closed chunk unless --restart. */
  private Noted full(CompareConfig task, AtomicReference<Runnable> stopRun) throws Exception {
    CompareRun run =
        new CompareRun(task, restart, new CompareMeters(metrics.registry(), task.taskName()));
    stopRun.set(run::stop);
    CompareRun.Summary summary = run.run();
    var out = spec.commandLine().getOut();
    for (CompareRun.TableDone table : summary.tables()) {
      out.printf(
          "%s run=%s chunks=%d rows=%d compared=%d%s%n",
          table.table(),
          table.runId(),
          table.chunks(),
          table.rows(),
          table.comparedRows(),
          table.restarted() ? " (restarted: key or compared columns changed)" : "");
    }
    out.printf(
        "task run %s %s%n",
        summary.taskRunId(),
        summary.complete() ? "noted every chunk" : "stopped; run again to continue");
    out.flush();
    return new Noted(
        summary.tables().stream()
            .map(t -> new RunWait.NotedTable(t.table().toString(), t.runId(), t.chunks()))
            .toList(),
        summary.complete());
  }

  /** An incremental run: the changed keys of each table, or a full run of a table seen first. */
  private Noted incremental(CompareConfig task, AtomicReference<Runnable> stopRun)
      throws Exception {
    IncrementalRun run =
        new IncrementalRun(task, new CompareMeters(metrics.registry(), task.taskName()));
    stopRun.set(run::stop);
    IncrementalRun.Summary summary = run.run();
    var out = spec.commandLine().getOut();
    summary.tables().forEach(table -> out.println(table.describe()));
    out.printf(
        "incremental run %s %s%n",
        summary.runId(),
        summary.complete() ? "noted every chunk" : "stopped; run again to continue");
    out.flush();
    return new Noted(
        summary.tables().stream()
            .filter(t -> t.chunks() > 0)
            .map(t -> new RunWait.NotedTable(t.table().toString(), t.runId(), t.chunks()))
            .toList(),
        summary.complete());
  }

  /**
   * Rechecks the run's in-flight keys ({@code recheck.in.flight}), at most {@code recheck.attempts}
   * times, and prints what each key ended as; returns the rechecks' exit code.
   */
  private int recheckInFlight(
      CompareConfig task, List<RunWait.NotedTable> noted, AtomicReference<Rechecks> rechecking)
      throws Exception {
    CommandLine cli = spec.commandLine();
    Rechecks rechecks = new Rechecks(task, TaskReportReader.of(task), cli.getOut(), cli.getErr());
    rechecking.set(rechecks);
    return rechecks.recheckInFlight(noted, Duration.ofSeconds(waitTimeoutSeconds));
  }

  /** Waits for the targets, prints the task's report and returns its exit code. */
  private int awaitReport(
      CompareConfig task, List<RunWait.NotedTable> tables, AtomicReference<RunWait> waiting)
      throws InterruptedException {
    RunWait wait = RunReport.waitFor(task, tables);
    waiting.set(wait);
    CommandLine cli = spec.commandLine();
    return RunReport.await(
            wait,
            task.taskName(),
            task.targets(),
            Duration.ofSeconds(waitTimeoutSeconds),
            cli.getOut(),
            cli.getErr())
        .orElse(ExitCode.STOPPED.code());
  }
}
