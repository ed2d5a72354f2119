package io.cdccompare.operations.page;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.RowCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The runs of each task as the results topic tells them: per run its kind, when its first and last
 * chunk verdicts were decided, and its rows matched, different (failed, missed or extra) and in
 * flight, summed over its targets and tables. Fed one chunk result at a time ({@link #add}), so a
 * long results topic is never held in memory. Not thread-safe.
 */
public final class RunHistory {
  /** One run of a task. */
  public record Run(
      String runId,
      String kind,
      Instant first,
      Instant last,
      long matched,
      long different,
      long inFlight) {}

  private static final class Sums {
    String kind;
    Instant first;
    Instant last;
    long matched;
    long different;
    long inFlight;
  }

  private final Map<String, Map<String, Sums>> byTask = new TreeMap<>();

  public void add(ChunkResult result) {
    Sums sums =
        byTask
            .computeIfAbsent(result.getTask(), t -> new LinkedHashMap<>())
            .computeIfAbsent(result.getRunId(), r -> new Sums());
    sums.kind = result.getTaskKind().name();
    Instant at = result.getVerifiedAt();
    sums.first = sums.first == null || at.isBefore(sums.first) ? at : sums.first;
    sums.last = sums.last == null || at.isAfter(sums.last) ? at : sums.last;
    RowCounts c = result.getCounts();
    sums.matched += c.getMatched();
    sums.different += c.getFailed() + c.getMissed() + c.getExtra();
    sums.inFlight += c.getInFlight();
  }

  /** The tasks seen, in name order. */
  public List<String> tasks() {
    return List.copyOf(byTask.keySet());
  }

  /** The runs of a task, oldest first (by their first verdict). */
  public List<Run> runs(String task) {
    List<Run> runs = new ArrayList<>();
    byTask
        .getOrDefault(task, Map.of())
        .forEach(
            (id, s) ->
                runs.add(new Run(id, s.kind, s.first, s.last, s.matched, s.different, s.inFlight)));
    runs.sort(Comparator.comparing(Run::first).thenComparing(Run::runId));
    return runs;
  }
}
