package io.cdccompare.app;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.operations.recheck.RecheckVerdicts;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.KeyListRun;
import io.cdccompare.producer.compare.RepairRun;
import io.cdccompare.producer.compare.RepairRun.Differences;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.avro.ChunkResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare repair -c FILE --target NAME [--run RUN] [--table T]… [--delete-extra]
 * [--dry-run] [--wait [--wait-timeout SECONDS]]}: repairs one target's differences in one run
 * (docs/design.md, "Repair"). The failed and missed keys are re-sent from the source through the
 * capture, so every target applies them in commit order; then exactly the repaired keys are
 * compared again on that target ({@link RepairRun}, run id {@code <run>.repair<n>}). With {@code
 * --delete-extra} the extra keys are deleted on that target where the source still lacks them at
 * the check's position. {@code --dry-run} prints per key what would be done and changes nothing.
 *
 * <p>Exit codes: 0 noted (with {@code --wait}: every key repaired), 1 failure (also: the target's
 * verifier is not running, or another process runs the task), 2 bad input (unknown target, table or
 * run, nothing to repair), 130 stopped; with {@code --wait} also 3 a key is still different, 4 a
 * key could not be verified, 5 a key stayed in flight through the rechecks, or the wait timed out.
 */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description =
        "Re-send one target's failed and missed rows of a run through the stream, then compare"
            + " exactly those keys again on that target.")
final class CompareRepairCommand implements Callable<Integer> {
  @Mixin TaskFileOption taskFile;

  @Option(
      names = "--target",
      required = true,
      paramLabel = "NAME",
      description = "The target to repair, one of the task's 'targets'.")
  String target;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = "The run whose differences are repaired (default: per table, the report's).")
  String run;

  @Option(
      names = "--table",
      paramLabel = "TABLE",
      description = "Repair only this table (schema.table, repeatable; default: every table).")
  List<String> tables = new ArrayList<>();

  @Option(
      names = "--delete-extra",
      description =
          "Also delete the target's extra rows whose key the source still lacks when the repair"
              + " compares them (default: extra rows are left).")
  boolean deleteExtra;

  @Option(
      names = "--dry-run",
      description = "Print what would be re-sent, deleted or left, per key; change nothing.")
  boolean dryRun;

  @Option(
      names = "--verifier-group",
      paramLabel = "GROUP",
      description =
          "The consumer group (application.id) of the target's verifier, checked to be running"
              + " (default: cdc-compare-verify-<target>).")
  String verifierGroup;

  @Option(
      names = "--wait",
      description =
          "Wait for the target's verdicts, print each key's outcome and exit with its code"
              + " (0 repaired, 3 still different, 4 unverified, 5 in flight or timeout).")
  boolean waitForOutcome;

  @Option(
      names = "--wait-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description = "Longest the re-send and --wait each wait (default ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    OptionChecks.requireSeconds(spec, "--wait-timeout", waitTimeoutSeconds);
    CompareConfig task = taskFile.load();
    OptionChecks.requireTargets(taskFile.file, task, "compare repair");
    if (!task.targets().contains(target)) {
      throw new ConfigException(
          "--target "
              + target
              + " is not one of the targets of task "
              + task.taskName()
              + " ("
              + CompareConfig.TARGETS
              + "="
              + task.targets()
              + ")");
    }
    ReportReader reader = TaskReportReader.of(task);
    Map<String, String> runs = selectTables(task, Rechecks.runsOf(task, reader, run));
    List<ChunkResult> results = Rechecks.results(task, reader, runs);
    String repaired = oneRun(task, runs);
    List<Differences> differences = differences(task, runs, results, repaired);
    String runId = RecheckRuns.repairRunId(repaired, nextRepair(results, repaired));
    Duration timeout = Duration.ofSeconds(waitTimeoutSeconds);
    RepairRun repair =
        new RepairRun(
            task, target, runId, deleteExtra, differences, RepairRun.throughCapture(task, timeout));
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      printPreview(repaired, repair.preview(), out);
      return ExitCode.OK.code();
    }
    Rechecks rechecks = new Rechecks(task, reader, out, spec.commandLine().getErr());
    try (StopHook hook =
        StopHook.install(
            "cdc-compare-repair-stop",
            () -> {
              repair.stop();
              rechecks.stop();
            })) {
      String group = verifierGroup == null ? PipelineNames.verifierGroup(target) : verifierGroup;
      RepairRun.Summary summary = repair.run(group);
      summary
          .resent()
          .forEach(
              (table, rows) ->
                  out.printf(
                      "%s repair run=%s target=%s re-sent rows=%s%n",
                      table, runId, target, rows < 0 ? "?" : Long.toString(rows)));
      for (KeyListRun.TableDone table : summary.check().tables()) {
        out.printf(
            "%s repair check run=%s chunks=%d keys=%d present=%d absent=%d%n",
            table.table(), runId, table.chunks(), table.keys(), table.present(), table.absent());
      }
      if (!summary.check().complete()) {
        out.printf("repair run %s stopped; run the repair again%n", runId);
        out.flush();
        return ExitCode.STOPPED.code();
      }
      Map<String, List<KeyList>> chunks = new LinkedHashMap<>();
      repair.checkChunks().forEach((table, lists) -> chunks.put(table.toString(), lists));
      if (!waitForOutcome) {
        out.printf(
            "repair run %s re-sent the rows and noted its check; --wait waits for target %s%n",
            runId, target);
        out.flush();
        return ExitCode.OK.code();
      }
      Optional<List<ChunkResult>> verdicts =
          rechecks.await(runId, chunks, List.of(target), timeout);
      if (verdicts.isEmpty()) {
        return ExitCode.INCOMPLETE.code();
      }
      RecheckOutcome outcome = RecheckOutcome.of(chunks, verdicts.get(), runId);
      out.printf("repair of run %s on target %s (run %s):%n", repaired, target, runId);
      RepairReport.print(outcome, differences, deleteExtra, out);
      int exit = outcome.exitCode().code();
      RecheckPlan unsettled = RecheckPlan.of(outcome.unsettled(), RecheckPlan.What.IN_FLIGHT);
      if (!unsettled.isEmpty()) {
        out.printf("keys changed while the repair compared them: rechecking them%n");
        out.flush();
        // 5 means only keys in flight: their recheck decides; a 3 or 4 stands whatever it says
        int settled = exit == ExitCode.INCOMPLETE.code() ? ExitCode.OK.code() : exit;
        exit = ExitCode.worse(settled, rechecks.recheck(runId, unsettled, 1, true, timeout));
      }
      return exit;
    }
  }

  /** The runs of the tables {@code --table} names (all when none), each checked to be a table. */
  private Map<String, String> selectTables(CompareConfig task, Map<String, String> runs) {
    if (tables.isEmpty()) {
      return runs;
    }
    Map<String, String> selected = new LinkedHashMap<>();
    for (String table : tables) {
      String name = TableName.parse(table).toString();
      if (!runs.containsKey(name)) {
        throw new ConfigException(
            "--table "
                + table
                + " is not one of the tables of task "
                + task.taskName()
                + " ("
                + CompareConfig.TABLES
                + "="
                + runs.keySet()
                + ")");
      }
      selected.put(name, runs.get(name));
    }
    return selected;
  }

  /** The run repaired: one run for every selected table (a repair is of one run). */
  private static String oneRun(CompareConfig task, Map<String, String> runs) {
    List<String> distinct = runs.values().stream().distinct().toList();
    if (distinct.size() != 1) {
      throw new ConfigException(
          "the report shows several runs of task "
              + task.taskName()
              + " ("
              + runs
              + "): name the run to repair with --run, or the tables with --table");
    }
    return distinct.get(0);
  }

  /** The target's differences in the run, per table; refuses a run without any. */
  private List<Differences> differences(
      CompareConfig task, Map<String, String> runs, List<ChunkResult> results, String repaired) {
    List<ChunkResult> ofRun =
        results.stream()
            .filter(r -> repaired.equals(r.getRunId()) && runs.containsKey(r.getTable()))
            .toList();
    if (ofRun.isEmpty()) {
      throw new ConfigException(
          "run "
              + repaired
              + " of task "
              + task.taskName()
              + " has no verdict in the results topic (an unknown run, or one still being"
              + " verified?)");
    }
    if (ofRun.stream().noneMatch(r -> r.getTarget().equals(target))) {
      throw new ConfigException(
          "run " + repaired + " has no verdict of target " + target + ": nothing to repair");
    }
    List<Differences> out = new ArrayList<>();
    long keys = 0;
    for (RecheckPlan.Verdict v : RecheckVerdicts.of(ofRun, repaired)) {
      if (!v.target().equals(target)) {
        continue;
      }
      Differences d =
          new Differences(
              TableName.parse(v.table()),
              new java.util.TreeSet<>(v.failed()),
              new java.util.TreeSet<>(v.missed()),
              new java.util.TreeSet<>(v.extra()));
      keys += d.resent().size() + (deleteExtra ? d.extra().size() : 0);
      out.add(d);
    }
    if (keys == 0) {
      throw new ConfigException(
          "run "
              + repaired
              + " has no failed or missed key"
              + (deleteExtra ? " and no extra key" : "")
              + " on target "
              + target
              + ": nothing to repair");
    }
    return out;
  }

  /** The number of the next repair of run {@code repaired}: 1 + the last with verdicts. */
  private static int nextRepair(List<ChunkResult> results, String repaired) {
    return 1
        + results.stream()
            .filter(r -> RecheckRuns.repaired(r.getRunId()).orElse("").equals(repaired))
            .mapToInt(r -> RecheckRuns.repairAttempt(r.getRunId()))
            .max()
            .orElse(0);
  }

  private void printPreview(
      String repaired, SortedMap<String, List<RepairRun.Step>> steps, PrintWriter out) {
    out.printf(
        "dry run: repair of run %s on target %s would do, per key (nothing changed):%n",
        repaired, target);
    steps.forEach(
        (table, list) -> {
          for (RepairRun.Step step : list) {
            out.printf(
                "%s %s %s: %s (%s)%n",
                table, step.key(), step.kind(), step.action().text(), step.why());
          }
        });
    out.flush();
  }
}
