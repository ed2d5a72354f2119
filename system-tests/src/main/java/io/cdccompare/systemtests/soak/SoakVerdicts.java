package io.cdccompare.systemtests.soak;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The soak's judgement of every result ever published: no difference that was not injected (in any
 * run, under any fault), exactly the injected ones in the last run, one verdict per chunk,
 * partition and target (a replayed verdict is the same verdict), every chunk of every completed run
 * verified by every target.
 */
final class SoakVerdicts {
  /** What the results showed. */
  record Checked(
      int expected,
      int found,
      List<String> notFound,
      List<String> falseDifferences,
      List<String> conflictingVerdicts,
      int repeatedRecords,
      List<String> incomplete,
      long chunksVerified,
      Map<String, Long> otherStates,
      long inFlightRows,
      Map<Fault, Integer> faultsByKind,
      Map<Fault, Long> longestDelayMs,
      Set<Fault> neverFollowedByVerdicts,
      int runsComplete) {}

  private final List<SoakRun.Injection> injections;
  private final List<SoakRun.DoneTable> done;
  private final List<SoakRun.DoneTable> finalRuns;
  private final List<String> targets;

  SoakVerdicts(
      List<SoakRun.Injection> injections,
      List<SoakRun.DoneTable> done,
      List<SoakRun.DoneTable> finalRuns,
      List<String> targets) {
    this.injections = injections;
    this.done = done;
    this.finalRuns = finalRuns;
    this.targets = targets;
  }

  /** Waits until every completed run has its verdicts from every target. */
  void awaitComplete(ResultLog log, Duration timeout) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (!incomplete(log.arrivals()).isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(500);
    }
  }

  static String table(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  private List<String> incomplete(List<ResultLog.Arrival> arrivals) {
    Map<String, Map<Long, Set<Integer>>> partitions = new HashMap<>();
    Map<String, Integer> partitionCount = new HashMap<>();
    for (ResultLog.Arrival a : arrivals) {
      ChunkResult r = a.result();
      String runKey = r.getRunId() + "|" + table(r.getTable()) + "|" + r.getTarget();
      partitions
          .computeIfAbsent(runKey, k -> new HashMap<>())
          .computeIfAbsent(r.getChunk(), k -> new HashSet<>())
          .add(r.getTablePartition());
      partitionCount.put(runKey, r.getPartitionCount());
    }
    List<String> missing = new ArrayList<>();
    for (SoakRun.DoneTable d : done) {
      for (String target : targets) {
        String runKey = d.runId() + "|" + table(d.table()) + "|" + target;
        Map<Long, Set<Integer>> chunks = partitions.getOrDefault(runKey, Map.of());
        long whole =
            chunks.values().stream()
                .filter(p -> p.size() == partitionCount.getOrDefault(runKey, -1))
                .count();
        if (chunks.size() != d.chunks() || whole != d.chunks()) {
          missing.add(runKey + ": " + whole + " of " + d.chunks() + " chunks fully verified");
        }
      }
    }
    return missing;
  }

  Checked check(List<ResultLog.Arrival> arrivals, List<Fault.Injected> faults) {
    Set<String> injected = new TreeSet<>();
    injections.forEach(i -> injected.add(i.id()));
    Set<String> finalRunIds = new HashSet<>();
    finalRuns.forEach(d -> finalRunIds.add(d.runId()));

    Set<String> falseDiffs = new TreeSet<>();
    Set<String> foundInFinal = new TreeSet<>();
    Map<String, String> verdicts = new HashMap<>();
    Set<String> conflicts = new TreeSet<>();
    int repeated = 0;
    Map<String, Long> otherStates = new TreeMap<>();
    long inFlight = 0;
    for (ResultLog.Arrival a : arrivals) {
      ChunkResult r = a.result();
      String table = table(r.getTable());
      String verdictKey =
          r.getRunId()
              + "|"
              + table
              + "|"
              + r.getChunk()
              + "|"
              + r.getTablePartition()
              + "|"
              + r.getTarget();
      String signature = signature(r);
      String earlier = verdicts.putIfAbsent(verdictKey, signature);
      if (earlier != null) {
        repeated++;
        if (!earlier.equals(signature)) {
          conflicts.add(verdictKey + ": " + earlier + " then " + signature);
        }
        continue;
      }
      if (r.getState() != ChunkState.VERIFIED) {
        String error = r.getError() == null ? "" : r.getError().toString();
        otherStates.merge(
            r.getState().name()
                + " ("
                + r.getTarget()
                + ": "
                + error.substring(0, Math.min(120, error.length()))
                + ")",
            1L,
            Long::sum);
      }
      inFlight += r.getCounts().getInFlight();
      Map<String, List<String>> classes =
          Map.of(
              "failed", r.getFailedKeys(), "missed", r.getMissedKeys(), "extra", r.getExtraKeys());
      classes.forEach(
          (kind, keys) -> {
            for (String key : keys) {
              String id = r.getTarget() + "|" + table + "|" + kind + "|" + key;
              if (!injected.contains(id)) {
                falseDiffs.add(id + " (run " + r.getRunId() + ", chunk " + r.getChunk() + ")");
              } else if (finalRunIds.contains(r.getRunId())) {
                foundInFinal.add(id);
              }
            }
          });
    }
    long verified =
        verdicts.entrySet().stream().filter(e -> e.getValue().startsWith("VERIFIED")).count();
    List<String> notFound = new ArrayList<>(injected);
    notFound.removeAll(foundInFinal);

    Map<Fault, Integer> byKind = new EnumMap<>(Fault.class);
    Map<Fault, Long> longest = new EnumMap<>(Fault.class);
    Set<Fault> never = new TreeSet<>();
    for (Fault.Injected f : faults) {
      byKind.merge(f.kind(), 1, Integer::sum);
      Long delay = delay(arrivals, f.startMs());
      if (delay == null) {
        never.add(f.kind());
      } else {
        longest.merge(f.kind(), delay, Math::max);
      }
    }
    return new Checked(
        injected.size(),
        foundInFinal.size(),
        notFound,
        List.copyOf(falseDiffs),
        List.copyOf(conflicts),
        repeated,
        incomplete(arrivals),
        verified,
        otherStates,
        inFlight,
        byKind,
        longest,
        never,
        (int) done.stream().map(SoakRun.DoneTable::runId).distinct().count());
  }

  /** Until every target published a verdict after {@code start}; null if one never did. */
  private Long delay(List<ResultLog.Arrival> arrivals, long start) {
    long worst = 0;
    for (String target : targets) {
      Long first = null;
      for (ResultLog.Arrival a : arrivals) {
        if (a.arrivedMs() >= start && a.result().getTarget().equals(target)) {
          first = first == null ? a.arrivedMs() : Math.min(first, a.arrivedMs());
        }
      }
      if (first == null) {
        return null;
      }
      worst = Math.max(worst, first - start);
    }
    return worst;
  }

  private static String signature(ChunkResult r) {
    var c = r.getCounts();
    return r.getState()
        + " m"
        + c.getMatched()
        + " f"
        + c.getFailed()
        + " x"
        + c.getMissed()
        + " e"
        + c.getExtra()
        + " i"
        + c.getInFlight()
        + " "
        + new TreeSet<>(strings(r.getFailedKeys()))
        + new TreeSet<>(strings(r.getMissedKeys()))
        + new TreeSet<>(strings(r.getExtraKeys()))
        + new TreeSet<>(strings(r.getInFlightKeys()));
  }

  private static List<String> strings(List<String> keys) {
    return keys;
  }
}
