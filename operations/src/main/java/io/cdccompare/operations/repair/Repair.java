package io.cdccompare.operations.repair;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.operations.recheck.RecheckVerdicts;
import io.cdccompare.operations.recheck.Rechecks;
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
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;

/**
 * One target's repair of one run's differences, the use case of {@code compare repair}
 * (docs/design.md, "Repair"). {@link #of} reads the run's verdicts and refuses what cannot be
 * repaired (an unknown target or table, several runs, nothing to repair); {@link #dryRun} prints
 * per key what would be done; {@link #run} re-sends the failed and missed keys through the capture
 * and notes the check of exactly the repaired keys on that target ({@link RepairRun}, run id {@code
 * <run>.repair<n>}), then, when waited for, prints each key's outcome ({@link RepairReport}) and
 * rechecks the keys the check left in flight ({@link Rechecks}).
 *
 * <p>Progress lines go to {@code out}, a timed-out wait's line to {@code err}; the exit code is
 * returned: 0 noted (waited for: every key repaired), 130 stopped; waited for also 3 a key is still
 * different, 4 a key could not be verified, 5 a key stayed in flight through the rechecks, or the
 * wait timed out. One caller; {@link #stop()} from any thread.
 */
public final class Repair {
  /**
   * What is repaired: {@code target}, the run {@code run} (null: per table, the report's), the
   * tables {@code tables} ({@code schema.table}; empty: every table of the task), the extra keys
   * too when {@code deleteExtra}; {@code timeout} bounds the re-send and each wait.
   */
  public record Request(
      String target, String run, List<String> tables, boolean deleteExtra, Duration timeout) {
    public Request {
      tables = List.copyOf(tables);
    }
  }

  private final Request request;
  private final String repaired;
  private final String runId;
  private final List<Differences> differences;
  private final RepairRun repair;
  private final Rechecks rechecks;
  private final PrintWriter out;

  private Repair(
      Request request,
      String repaired,
      String runId,
      List<Differences> differences,
      RepairRun repair,
      Rechecks rechecks,
      PrintWriter out) {
    this.request = request;
    this.repaired = repaired;
    this.runId = runId;
    this.differences = differences;
    this.repair = repair;
    this.rechecks = rechecks;
    this.out = out;
  }

  /**
   * The repair {@code request} asks of {@code task}, its run's verdicts read now.
   *
   * @throws ConfigException when the target or a table is not the task's, the tables' runs are
   *     several, the run has no verdict (of the target), or it has nothing to repair
   */
  public static Repair of(CompareConfig task, Request request, PrintWriter out, PrintWriter err) {
    String target = request.target();
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
    Map<String, String> runs =
        selectTables(task, request.tables(), Rechecks.runsOf(task, reader, request.run()));
    List<ChunkResult> results = Rechecks.results(task, reader, runs);
    String repaired = oneRun(task, runs);
    List<Differences> differences = differences(task, request, runs, results, repaired);
    String runId = RecheckRuns.repairRunId(repaired, nextRepair(results, repaired));
    RepairRun repair =
        new RepairRun(
            task,
            target,
            runId,
            request.deleteExtra(),
            differences,
            RepairRun.throughCapture(task, request.timeout()));
    return new Repair(
        request, repaired, runId, differences, repair, new Rechecks(task, reader, out, err), out);
  }

  /** Prints what the repair would do, per key, and changes nothing; 0. */
  public int dryRun() throws Exception {
    SortedMap<String, List<RepairRun.Step>> steps = repair.preview();
    out.printf(
        "dry run: repair of run %s on target %s would do, per key (nothing changed):%n",
        repaired, request.target());
    steps.forEach(
        (table, list) -> {
          for (RepairRun.Step step : list) {
            out.printf(
                "%s %s %s: %s (%s)%n",
                table, step.key(), step.kind(), step.action().text(), step.why());
          }
        });
    out.flush();
    return ExitCode.OK.code();
  }

  /** Stops the re-send or check being run after its step, and any wait at its next poll. */
  public void stop() {
    repair.stop();
    rechecks.stop();
  }

  /**
   * Runs the repair: re-sends the rows and notes the check; with {@code wait}, waits for the
   * target's verdicts, prints each key's outcome and rechecks the keys left in flight.
   *
   * @param verifierGroup the target's verifier group, checked to be running (null: {@link
   *     PipelineNames#verifierGroup})
   * @return the exit code (class comment)
   */
  public int run(String verifierGroup, boolean wait) throws Exception {
    String target = request.target();
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
    if (!wait) {
      out.printf(
          "repair run %s re-sent the rows and noted its check; --wait waits for target %s%n",
          runId, target);
      out.flush();
      return ExitCode.OK.code();
    }
    Optional<List<ChunkResult>> verdicts =
        rechecks.await(runId, chunks, List.of(target), request.timeout());
    if (verdicts.isEmpty()) {
      return ExitCode.INCOMPLETE.code();
    }
    RecheckOutcome outcome = RecheckOutcome.of(chunks, verdicts.get(), runId);
    out.printf("repair of run %s on target %s (run %s):%n", repaired, target, runId);
    RepairReport.print(outcome, differences, request.deleteExtra(), out);
    int exit = outcome.exitCode().code();
    RecheckPlan unsettled = RecheckPlan.of(outcome.unsettled(), RecheckPlan.What.IN_FLIGHT);
    if (!unsettled.isEmpty()) {
      out.printf("keys changed while the repair compared them: rechecking them%n");
      out.flush();
      // 5 means only keys in flight: their recheck decides; a 3 or 4 stands whatever it says
      int settled = exit == ExitCode.INCOMPLETE.code() ? ExitCode.OK.code() : exit;
      exit =
          ExitCode.worse(settled, rechecks.recheck(runId, unsettled, 1, true, request.timeout()));
    }
    return exit;
  }

  /** The runs of the tables {@code tables} names (all when none), each checked to be a table. */
  private static Map<String, String> selectTables(
      CompareConfig task, List<String> tables, Map<String, String> runs) {
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
  private static List<Differences> differences(
      CompareConfig task,
      Request request,
      Map<String, String> runs,
      List<ChunkResult> results,
      String repaired) {
    String target = request.target();
    boolean deleteExtra = request.deleteExtra();
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
              new TreeSet<>(v.failed()),
              new TreeSet<>(v.missed()),
              new TreeSet<>(v.extra()));
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
}
