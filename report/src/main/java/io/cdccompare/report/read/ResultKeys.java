package io.cdccompare.report.read;

import io.cdccompare.schemas.avro.ChunkResult;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The failed, missed and extra keys of chunk results, per (task, target, table, run): the union
 * over every chunk and partition, so a re-emitted verdict adds nothing. Each kind is sorted ({@link
 * KeyOrder}) and the first {@code maxKeys} are shown (0: all).
 */
public final class ResultKeys implements TaskReports.KeysOf {
  private record Id(String task, String target, String table, String runId) {}

  private record Kinds(Set<String> failed, Set<String> missed, Set<String> extra) {
    Kinds() {
      this(
          new TreeSet<>(KeyOrder.INSTANCE),
          new TreeSet<>(KeyOrder.INSTANCE),
          new TreeSet<>(KeyOrder.INSTANCE));
    }
  }

  private static final Kinds NONE = new Kinds(Set.of(), Set.of(), Set.of());

  private final Map<Id, Kinds> byRow = new HashMap<>();
  private final int maxKeys;

  private ResultKeys(int maxKeys) {
    if (maxKeys < 0) {
      throw new IllegalArgumentException("maxKeys must not be negative, was " + maxKeys);
    }
    this.maxKeys = maxKeys;
  }

  /**
   * The keys of {@code results}.
   *
   * @param maxKeys keys shown per kind at most; 0 shows every key
   */
  public static ResultKeys of(List<ChunkResult> results, int maxKeys) {
    ResultKeys keys = new ResultKeys(maxKeys);
    for (ChunkResult result : results) {
      Kinds kinds =
          keys.byRow.computeIfAbsent(
              new Id(result.getTask(), result.getTarget(), result.getTable(), result.getRunId()),
              id -> new Kinds());
      kinds.failed().addAll(result.getFailedKeys());
      kinds.missed().addAll(result.getMissedKeys());
      kinds.extra().addAll(result.getExtraKeys());
    }
    return keys;
  }

  /** Accepts the results of the rows of {@code reports} that have differences, and no others. */
  public static Predicate<ChunkResult> ofRowsWithDifferences(List<TaskReport> reports) {
    Set<Id> wanted = new HashSet<>();
    for (TaskReport report : reports) {
      for (TargetReport target : report.targets()) {
        for (ReportRow row : target.tables()) {
          if (row.hasDifferences() && row.runId().isPresent()) {
            wanted.add(
                new Id(
                    report.task(), target.target(), row.table().orElseThrow(), row.runId().get()));
          }
        }
      }
    }
    return result ->
        wanted.contains(
            new Id(result.getTask(), result.getTarget(), result.getTable(), result.getRunId()));
  }

  @Override
  public DifferenceKeys keys(String task, String target, String table, String runId) {
    Kinds kinds = byRow.getOrDefault(new Id(task, target, table, runId), NONE);
    return new DifferenceKeys(
        DifferenceKeys.Keys.first(kinds.failed(), maxKeys),
        DifferenceKeys.Keys.first(kinds.missed(), maxKeys),
        DifferenceKeys.Keys.first(kinds.extra(), maxKeys));
  }
}
