package io.cdccompare.app;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.ExitCode;
import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.operations.recheck.RecheckVerdicts;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.KeyListRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.topology.report.ReportReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare recheck -c FILE [--run RUN] [--what in-flight|differences|all] [--wait
 * [--wait-timeout SECONDS]]}: compares again, as key-list chunks, the keys a finished run left in
 * flight (and on request its differences), each at the targets whose verdicts listed it
 * (docs/design.md, "Recheck"). The keys come from the results topic; the run is {@code --run} or,
 * per table, the run the report shows. With {@code --wait} it waits for every target's verdicts on
 * every chunk of the recheck and prints, per target and table, each key confirmed, cleared,
 * unsettled or unverified.
 *
 * <p>Exit codes: 0 noted (with {@code --wait}: every key cleared), 1 failure, 2 bad configuration
 * or a run without verdicts, 130 stopped; with {@code --wait} also 3 a key is different again, 4 a
 * key could not be verified, 5 a key is unsettled or the wait timed out.
 */
@Command(
    name = "recheck",
    mixinStandardHelpOptions = true,
    description =
        "Compare again the keys a finished run left in flight (or its differences), at the"
            + " targets that listed them, through the stream.")
final class CompareRecheckCommand implements Callable<Integer> {
  /** Keys per key-list chunk: each is looked up on the source and on every target one by one. */
  static final int KEYS_PER_CHUNK = 1_000;

  /** How often the results are read while waiting. */
  static final Duration WAIT_POLL = Duration.ofSeconds(2);

  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "Task file (the one of compare run); its 'targets' key is required.")
  Path config;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = "The run whose keys are rechecked (default: per table, the run of the report).")
  String run;

  @Option(
      names = "--what",
      paramLabel = "KEYS",
      defaultValue = "in-flight",
      description =
          "in-flight (default), differences (failed, missed and extra keys) or all (both).")
  String what;

  @Option(
      names = "--wait",
      description =
          "Wait for every target's verdicts, print each key's outcome and exit with its code"
              + " (0 cleared, 3 different again, 4 unverified, 5 unsettled or timeout).")
  boolean waitForOutcome;

  @Option(
      names = "--wait-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description = "Longest --wait waits for the targets (default ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Set by Ctrl-C or SIGTERM: the run stops after its chunk, the wait at its next poll. */
  private volatile boolean stopping;

  private volatile KeyListRun running;

  @Override
  public Integer call() throws Exception {
    if (waitTimeoutSeconds < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--wait-timeout must be at least 1 second, was " + waitTimeoutSeconds);
    }
    RecheckPlan.What keys;
    try {
      keys = RecheckPlan.What.parse(what);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    CompareConfig task = CompareConfig.load(config);
    if (task.targets().isEmpty()) {
      throw new ConfigException(
          config
              + ": compare recheck needs the key "
              + CompareConfig.TARGETS
              + " (the targets that verify this task, as named in the targets file)");
    }
    ReportReader reader = TaskReportReader.of(task);
    Map<String, String> rechecked = rechecked(task, reader);
    List<ChunkResult> results;
    try {
      results =
          reader.results(
              r ->
                  r.getTask().equals(task.taskName())
                      && rechecked.containsValue(
                          RecheckRuns.rechecked(r.getRunId()).orElse(r.getRunId())));
    } catch (ReportReader.MissingTopicException e) {
      results = List.of(); // no verifier ever published: no run has a verdict
    }
    PrintWriter out = spec.commandLine().getOut();
    try (StopHook hook = StopHook.install("cdc-compare-recheck-stop", this::stop)) {
      return recheckAll(task, reader, keys, rechecked, results, out);
    }
  }

  private void stop() {
    stopping = true;
    KeyListRun current = running;
    if (current != null) {
      current.stop();
    }
  }

  private int recheckAll(
      CompareConfig task,
      ReportReader reader,
      RecheckPlan.What keys,
      Map<String, String> rechecked,
      List<ChunkResult> results,
      PrintWriter out)
      throws Exception {
    int exit = ExitCode.OK.code();
    for (String runId : new java.util.TreeSet<>(rechecked.values())) {
      List<ChunkResult> ofRun =
          results.stream()
              .filter(r -> runId.equals(r.getRunId()) && runId.equals(rechecked.get(r.getTable())))
              .toList();
      if (ofRun.isEmpty()) {
        throw new ConfigException(
            "run "
                + runId
                + " of task "
                + task.taskName()
                + " has no verdict in the results topic"
                + " (a run id of 'report', or a run still being verified?)");
      }
      RecheckPlan plan = RecheckPlan.of(RecheckVerdicts.of(ofRun, runId), keys);
      if (plan.isEmpty()) {
        out.printf("run %s: no %s key to recheck%n", runId, keys.text());
        continue;
      }
      int attempt =
          1
              + results.stream()
                  .filter(r -> RecheckRuns.rechecked(r.getRunId()).orElse("").equals(runId))
                  .mapToInt(r -> RecheckRuns.attempt(r.getRunId()))
                  .max()
                  .orElse(0);
      int code = recheck(task, reader, plan, RecheckRuns.runId(runId, attempt), out);
      exit = worse(exit, code);
      if (code == ExitCode.STOPPED.code()) {
        break;
      }
    }
    out.flush();
    return exit;
  }

  /** Per table of the task, the run whose keys are rechecked. */
  private Map<String, String> rechecked(CompareConfig task, ReportReader reader) {
    Map<String, String> runs = new TreeMap<>();
    Set<String> tables = new java.util.TreeSet<>();
    task.tables().forEach(t -> tables.add(t.table().toString()));
    if (run != null) {
      tables.forEach(t -> runs.put(t, run));
      return runs;
    }
    for (ReportEntry e : reader.entries()) {
      if (e.getTask().equals(task.taskName())
          && e.getTable() != null
          && e.getRunId() != null
          && tables.contains(e.getTable())) {
        runs.merge(e.getTable(), e.getRunId(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
    }
    if (runs.isEmpty()) {
      throw new ConfigException(
          "the report shows no run of task " + task.taskName() + ": name one with --run");
    }
    return runs;
  }

  /** Runs one recheck of {@code plan}, and with --wait waits for and prints its outcome. */
  private int recheck(
      CompareConfig task,
      ReportReader reader,
      RecheckPlan plan,
      String recheckRunId,
      PrintWriter out)
      throws Exception {
    Map<TableName, List<KeyList>> chunks = new LinkedHashMap<>();
    Map<String, List<KeyList>> chunksByName = new LinkedHashMap<>();
    for (TableTask table : task.tables()) {
      String name = table.table().toString();
      if (plan.tables().contains(name)) {
        List<KeyList> lists = plan.chunks(name, KEYS_PER_CHUNK);
        chunks.put(table.table(), lists);
        chunksByName.put(name, lists);
      }
    }
    KeyListRun keyListRun = new KeyListRun(task, recheckRunId, TaskKind.RECHECK, chunks);
    running = keyListRun;
    if (stopping) {
      keyListRun.stop();
    }
    KeyListRun.Summary summary = keyListRun.run();
    for (KeyListRun.TableDone table : summary.tables()) {
      out.printf(
          "%s recheck run=%s chunks=%d keys=%d present=%d absent=%d%n",
          table.table(),
          recheckRunId,
          table.chunks(),
          table.keys(),
          table.present(),
          table.absent());
    }
    out.flush();
    if (!summary.complete()) {
      out.printf("recheck run %s stopped; run the recheck again%n", recheckRunId);
      return ExitCode.STOPPED.code();
    }
    if (!waitForOutcome) {
      out.printf(
          "recheck run %s noted every chunk; --wait waits for the targets' verdicts%n",
          recheckRunId);
      return ExitCode.OK.code();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(waitTimeoutSeconds).toNanos();
    List<ChunkResult> verdicts = List.of();
    while (true) {
      if (stopping) {
        return ExitCode.STOPPED.code();
      }
      verdicts = reader.results(r -> r.getRunId().equals(recheckRunId));
      if (RecheckOutcome.complete(chunksByName, verdicts, recheckRunId, task.targets())) {
        break;
      }
      if (System.nanoTime() > deadline) {
        spec.commandLine()
            .getErr()
            .printf(
                "recheck run %s: not every target of %s verified every chunk within %d s%n",
                recheckRunId, task.targets(), waitTimeoutSeconds);
        return ExitCode.INCOMPLETE.code();
      }
      Thread.sleep(WAIT_POLL.toMillis());
    }
    RecheckOutcome outcome = RecheckOutcome.of(chunksByName, verdicts, recheckRunId);
    outcome.print(out);
    return outcome.exitCode().code();
  }

  /** The worse of two exit codes: 4, then 3, then 5, then 0 (130 wins over all). */
  private static int worse(int a, int b) {
    List<Integer> order =
        new ArrayList<>(
            List.of(
                ExitCode.STOPPED.code(),
                ExitCode.UNVERIFIABLE.code(),
                ExitCode.DIFFERENCES.code(),
                ExitCode.INCOMPLETE.code(),
                ExitCode.OK.code()));
    int ia = order.indexOf(a);
    int ib = order.indexOf(b);
    return ia >= 0 && ib >= 0 && ib < ia ? b : a;
  }
}
