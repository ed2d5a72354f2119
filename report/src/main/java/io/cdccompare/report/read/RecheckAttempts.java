package io.cdccompare.report.read;

import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The recheck attempts and repairs of runs, from the RECHECK and REPAIR chunk results of the
 * results topic: per (task, target, table, rechecked or repaired run) every attempt whose verdicts
 * the results hold, in attempt order ({@link RecheckAttempt}). A recheck run is linked to the run
 * it rechecks by its id alone ({@link RecheckRuns}), so nothing is inferred. A re-emitted verdict
 * (same chunk and table partition) counts once; keys are the union over the attempt's chunks and
 * partitions, each kind sorted ({@link KeyOrder}) and cut at {@code maxKeys} (0: all). An attempt
 * still being verified shows the verdicts that have arrived.
 */
public final class RecheckAttempts implements TaskReports.RechecksOf {
  private record Row(String task, String target, String table, String runId) {}

  /** What the results of one attempt on one target and table add up to so far. */
  private static final class Attempt {
    final String runId;
    final int attempt;
    final Set<String> verdicts = new HashSet<>(); // chunk/tablePartition
    final Set<Long> unverifiable = new HashSet<>();
    final Set<String> failed = new TreeSet<>(KeyOrder.INSTANCE);
    final Set<String> missed = new TreeSet<>(KeyOrder.INSTANCE);
    final Set<String> extra = new TreeSet<>(KeyOrder.INSTANCE);
    final Set<String> inFlight = new TreeSet<>(KeyOrder.INSTANCE);
    RowTotals rows = RowTotals.ZERO;

    Attempt(String runId) {
      this.runId = runId;
      int repair = RecheckRuns.repairAttempt(runId);
      this.attempt = repair > 0 ? repair : RecheckRuns.attempt(runId);
    }

    void add(ChunkResult result) {
      if (!verdicts.add(result.getChunk() + "/" + result.getTablePartition())) {
        return;
      }
      if (result.getState() != ChunkState.VERIFIED) {
        unverifiable.add(result.getChunk());
        return;
      }
      RowCounts c = result.getCounts();
      rows =
          rows.plus(
              new RowTotals(
                  c.getMatched(), c.getFailed(), c.getMissed(), c.getExtra(), c.getInFlight()));
      failed.addAll(result.getFailedKeys());
      missed.addAll(result.getMissedKeys());
      extra.addAll(result.getExtraKeys());
      inFlight.addAll(result.getInFlightKeys());
    }

    RecheckAttempt shown(int maxKeys) {
      return new RecheckAttempt(
          attempt,
          runId,
          rows,
          unverifiable.size(),
          new DifferenceKeys(
              DifferenceKeys.Keys.first(failed, maxKeys),
              DifferenceKeys.Keys.first(missed, maxKeys),
              DifferenceKeys.Keys.first(extra, maxKeys)),
          DifferenceKeys.Keys.first(inFlight, maxKeys));
    }
  }

  private static final Comparator<Attempt> IN_ORDER =
      Comparator.comparingInt((Attempt a) -> a.attempt).thenComparing(a -> a.runId);

  private final Map<Row, Map<String, Attempt>> byRow = new HashMap<>();
  private final int maxKeys;

  private RecheckAttempts(int maxKeys) {
    if (maxKeys < 0) {
      throw new IllegalArgumentException("maxKeys must not be negative, was " + maxKeys);
    }
    this.maxKeys = maxKeys;
  }

  /**
   * The attempts of the RECHECK results among {@code results}; the others are left out.
   *
   * @param maxKeys keys shown per kind and attempt at most; 0 shows every key
   */
  public static RecheckAttempts of(List<ChunkResult> results, int maxKeys) {
    RecheckAttempts attempts = new RecheckAttempts(maxKeys);
    for (ChunkResult result : results) {
      rechecked(result)
          .ifPresent(
              run ->
                  attempts
                      .byRow
                      .computeIfAbsent(
                          new Row(result.getTask(), result.getTarget(), result.getTable(), run),
                          row -> new HashMap<>())
                      .computeIfAbsent(result.getRunId(), Attempt::new)
                      .add(result));
    }
    return attempts;
  }

  /**
   * Accepts the RECHECK results that recheck the run of a table row of {@code reports} on the row's
   * target and table, and no others.
   */
  public static Predicate<ChunkResult> ofRows(List<TaskReport> reports) {
    Set<Row> wanted = new HashSet<>();
    for (TaskReport report : reports) {
      for (TargetReport target : report.targets()) {
        for (ReportRow row : target.tables()) {
          row.runId()
              .ifPresent(
                  run ->
                      wanted.add(
                          new Row(report.task(), target.target(), row.table().orElseThrow(), run)));
        }
      }
    }
    return result ->
        rechecked(result)
            .map(
                run ->
                    wanted.contains(
                        new Row(result.getTask(), result.getTarget(), result.getTable(), run)))
            .orElse(false);
  }

  @Override
  public List<RecheckAttempt> rechecks(String task, String target, String table, String runId) {
    List<Attempt> attempts =
        new ArrayList<>(byRow.getOrDefault(new Row(task, target, table, runId), Map.of()).values());
    attempts.sort(IN_ORDER);
    return attempts.stream().map(a -> a.shown(maxKeys)).toList();
  }

  /**
   * The run a RECHECK or REPAIR result rechecks or repairs, at the root of its chain ({@link
   * RecheckRuns#origin}); empty for a result of another kind.
   */
  private static Optional<String> rechecked(ChunkResult result) {
    if (result.getTaskKind() != TaskKind.RECHECK && result.getTaskKind() != TaskKind.REPAIR) {
      return Optional.empty();
    }
    String origin = RecheckRuns.origin(result.getRunId());
    return origin.equals(result.getRunId()) ? Optional.empty() : Optional.of(origin);
  }
}
