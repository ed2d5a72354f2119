package io.cdccompare.operations.recheck;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.KeyListRun;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.report.read.RunWait;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.TaskKind;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;

/**
 * Rechecks of one run's keys (docs/design.md, "Recheck"), for {@code compare recheck} and for
 * {@code compare run --wait} with {@code recheck.in.flight}: each attempt is a run of key-list
 * chunks ({@link KeyListRun}, id {@code <run>.recheck<n>}); when waited for, the keys an attempt
 * leaves in flight are rechecked again, up to the task's {@code recheck.attempts}, and what is
 * still in flight after the last attempt is unsettled. {@code compare repair} uses the same wait
 * and rechecks the keys its check leaves in flight. Progress lines go to {@code out}, a timed-out
 * wait's line to {@code err}; the exit code is returned, never acted on. One caller; {@link
 * #stop()} from any thread.
 */
public final class Rechecks {
  /** Keys per key-list chunk: each is looked up on the source and on every target one by one. */
  public static final int KEYS_PER_CHUNK = 1_000;

  /** How often the results are read while waiting. */
  public static final Duration WAIT_POLL = Duration.ofSeconds(2);

  private final CompareConfig task;
  private final ReportReader reader;
  private final PrintWriter out;
  private final PrintWriter err;
  private volatile boolean stopping;
  private volatile KeyListRun running;

  /**
   * The runs rechecked, per table ({@code byTable}: table → run id), with the verdicts of those
   * runs and of their earlier rechecks and repairs ({@code results}).
   */
  public record Runs(Map<String, String> byTable, List<ChunkResult> results) {
    public Runs {
      byTable = Map.copyOf(byTable);
      results = List.copyOf(results);
    }
  }

  public Rechecks(CompareConfig task, ReportReader reader, PrintWriter out, PrintWriter err) {
    this.task = task;
    this.reader = reader;
    this.out = out;
    this.err = err;
  }

  /** Stops the attempt being run after its chunk, and any wait at its next poll. */
  public void stop() {
    stopping = true;
    KeyListRun current = running;
    if (current != null) {
      current.stop();
    }
  }

  /**
   * The runs {@code compare recheck} rechecks: {@code run} for every table when given, else per
   * table the run the report shows ({@link #runsOf}), and their verdicts read now.
   *
   * @throws ConfigException when no run is given and the report shows none
   */
  public Runs runs(String run) {
    Map<String, String> byTable = runsOf(task, reader, run);
    return new Runs(byTable, results(task, reader, byTable));
  }

  /**
   * Rechecks the {@code what} keys of each of {@code runs}, run by run.
   *
   * @return the worst exit code of the runs' rechecks ({@link ExitCode#worse})
   * @throws ConfigException when a run has no verdict at all
   */
  public int recheckRuns(Runs runs, RecheckPlan.What what, boolean wait, Duration timeout)
      throws Exception {
    return recheckRuns(runs.byTable(), runs.results(), what, wait, timeout);
  }

  /**
   * The rechecks of {@code compare run --wait} with {@code recheck.in.flight}: the in-flight keys
   * of the runs of the tables that noted a chunk ({@code noted}), waited for; 0 when none noted
   * any.
   */
  public int recheckInFlight(List<RunWait.NotedTable> noted, Duration timeout) throws Exception {
    Map<String, String> runs = new TreeMap<>();
    noted.stream().filter(t -> t.chunks() > 0).forEach(t -> runs.put(t.table(), t.runId()));
    if (runs.isEmpty()) {
      return ExitCode.OK.code();
    }
    return recheckRuns(
        runs, results(task, reader, runs), RecheckPlan.What.IN_FLIGHT, true, timeout);
  }

  /**
   * Rechecks the {@code what} keys of each table's run ({@code runs}: table → run id), run by run.
   *
   * @param results the verdicts of those runs and of their earlier rechecks
   * @return the worst exit code of the runs' rechecks ({@link ExitCode#worse})
   * @throws ConfigException when a run has no verdict at all
   */
  private int recheckRuns(
      Map<String, String> runs,
      List<ChunkResult> results,
      RecheckPlan.What what,
      boolean wait,
      Duration timeout)
      throws Exception {
    int exit = ExitCode.OK.code();
    for (String runId : new TreeSet<>(runs.values())) {
      List<ChunkResult> ofRun =
          results.stream()
              .filter(r -> runId.equals(r.getRunId()) && runId.equals(runs.get(r.getTable())))
              .toList();
      if (ofRun.isEmpty()) {
        throw new ConfigException(
            "run "
                + runId
                + " of task "
                + task.taskName()
                + " has no verdict in the results topic (a run id of 'report', or a run still"
                + " being verified?)");
      }
      RecheckPlan plan = RecheckPlan.of(RecheckVerdicts.of(ofRun, runId), what);
      if (plan.isEmpty()) {
        out.printf("run %s: no %s key to recheck%n", runId, what.text());
        out.flush();
        continue;
      }
      int code = recheck(runId, plan, nextAttempt(results, runId), wait, timeout);
      exit = ExitCode.worse(exit, code);
      if (code == ExitCode.STOPPED.code()) {
        break;
      }
    }
    return exit;
  }

  /**
   * Rechecks {@code plan}, the keys of run {@code rechecked}, starting at attempt {@code attempt}.
   * Without {@code wait} one attempt is noted and 0 returned; with it, attempts follow until no key
   * is in flight or {@code recheck.attempts} were made, then the outcome is printed and its exit
   * code returned.
   *
   * @param timeout the longest wait for each attempt's verdicts
   */
  public int recheck(
      String rechecked, RecheckPlan plan, int attempt, boolean wait, Duration timeout)
      throws Exception {
    RecheckOutcome outcome = null;
    RecheckPlan next = plan;
    for (int n = attempt; n < attempt + task.recheckAttempts() && !next.isEmpty(); n++) {
      String runId = RecheckRuns.runId(rechecked, n);
      Map<String, List<KeyList>> chunks = chunks(next);
      if (!note(runId, chunks)) {
        return ExitCode.STOPPED.code();
      }
      if (!wait) {
        out.printf(
            "recheck run %s noted every chunk; --wait waits for the targets' verdicts%n", runId);
        out.flush();
        return ExitCode.OK.code();
      }
      Optional<List<ChunkResult>> verdicts = await(runId, chunks, task.targets(), timeout);
      if (verdicts.isEmpty()) {
        return stopping ? ExitCode.STOPPED.code() : ExitCode.INCOMPLETE.code();
      }
      RecheckOutcome attempted = RecheckOutcome.of(chunks, verdicts.get(), runId);
      outcome = outcome == null ? attempted : outcome.followedBy(attempted);
      next = RecheckPlan.of(attempted.unsettled(), RecheckPlan.What.IN_FLIGHT);
    }
    if (outcome == null) {
      return ExitCode.OK.code();
    }
    out.printf("recheck of run %s:%n", rechecked);
    outcome.print(out);
    return outcome.exitCode().code();
  }

  /**
   * Per table of the task, the run whose keys are rechecked or repaired: {@code run} for every
   * table when given, else the run the report shows for the table.
   *
   * @throws ConfigException when no run is given and the report shows none
   */
  public static Map<String, String> runsOf(CompareConfig task, ReportReader reader, String run) {
    Map<String, String> runs = new TreeMap<>();
    Set<String> tables = new TreeSet<>();
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

  /**
   * The verdicts of the task's runs {@code runs} (table → run id) and of their earlier rechecks and
   * repairs; none when the results topic does not exist yet.
   */
  public static List<ChunkResult> results(
      CompareConfig task, ReportReader reader, Map<String, String> runs) {
    try {
      return reader.results(
          r ->
              r.getTask().equals(task.taskName())
                  && runs.containsValue(RecheckRuns.origin(r.getRunId())));
    } catch (ReportReader.MissingTopicException e) {
      return List.of(); // no verifier ever published: no run has a verdict
    }
  }

  /** The next attempt at rechecking run {@code rechecked}: 1 + the last one with verdicts. */
  private static int nextAttempt(List<ChunkResult> results, String rechecked) {
    return 1
        + results.stream()
            .filter(r -> RecheckRuns.rechecked(r.getRunId()).orElse("").equals(rechecked))
            .mapToInt(r -> RecheckRuns.attempt(r.getRunId()))
            .max()
            .orElse(0);
  }

  /** The plan's key-list chunks per table, in the task's table order. */
  private Map<String, List<KeyList>> chunks(RecheckPlan plan) {
    Map<String, List<KeyList>> chunks = new LinkedHashMap<>();
    for (TableTask table : task.tables()) {
      String name = table.table().toString();
      if (plan.tables().contains(name)) {
        chunks.put(name, plan.chunks(name, KEYS_PER_CHUNK));
      }
    }
    return chunks;
  }

  /** Notes one attempt's chunks; false when it was stopped before its end. */
  private boolean note(String runId, Map<String, List<KeyList>> chunks) throws Exception {
    Map<TableName, List<KeyList>> byTable = new LinkedHashMap<>();
    for (TableTask table : task.tables()) {
      List<KeyList> lists = chunks.get(table.table().toString());
      if (lists != null) {
        byTable.put(table.table(), lists);
      }
    }
    KeyListRun run = new KeyListRun(task, runId, TaskKind.RECHECK, byTable);
    running = run;
    if (stopping) {
      run.stop();
    }
    KeyListRun.Summary summary = run.run();
    for (KeyListRun.TableDone table : summary.tables()) {
      out.printf(
          "%s recheck run=%s chunks=%d keys=%d present=%d absent=%d%n",
          table.table(), runId, table.chunks(), table.keys(), table.present(), table.absent());
    }
    out.flush();
    if (!summary.complete()) {
      out.printf("recheck run %s stopped; run the recheck again%n", runId);
      out.flush();
    }
    return summary.complete();
  }

  /**
   * The verdicts of run {@code runId} once every target of {@code targets} gave them all; empty on
   * timeout or stop.
   */
  public Optional<List<ChunkResult>> await(
      String runId, Map<String, List<KeyList>> chunks, Collection<String> targets, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!stopping) {
      List<ChunkResult> verdicts = reader.results(r -> r.getRunId().equals(runId));
      if (RecheckOutcome.complete(chunks, verdicts, runId, targets)) {
        return Optional.of(verdicts);
      }
      if (System.nanoTime() > deadline) {
        err.printf(
            "cdc-compare: recheck run %s: not every target of %s verified every chunk within %d"
                + " s%n",
            runId, targets, timeout.toSeconds());
        err.flush();
        return Optional.empty();
      }
      Thread.sleep(WAIT_POLL.toMillis());
    }
    return Optional.empty();
  }
}
