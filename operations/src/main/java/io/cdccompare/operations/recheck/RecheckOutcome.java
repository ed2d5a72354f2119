package io.cdccompare.operations.recheck;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a recheck found, per target and table, for the keys it compared again (docs/design.md,
 * "Recheck"): <b>confirmed</b> (different again: failed, missed or extra), <b>cleared</b> (matched
 * now) or <b>unsettled</b> (in flight again: the row kept changing; neither a difference nor a
 * match). A key the plan gave a target that the target's verdicts do not name at all was matched. A
 * chunk that a target could not verify (UNVERIFIABLE, SCHEMA_DRIFT, STALLED) leaves its keys on
 * that target <b>unverified</b>.
 *
 * <p>Complete once every target named has a verdict of every partition of every noted chunk of the
 * recheck run ({@link #complete}).
 */
public final class RecheckOutcome {
  private static final String IN_FLIGHT = "in flight";

  /** The outcome on one (target, table). */
  public record TableOutcome(
      String target,
      String table,
      SortedMap<String, String> confirmed,
      Set<String> cleared,
      Set<String> unsettled,
      Set<String> unverified) {

    /** Whether any key is different again. */
    public boolean hasDifferences() {
      return !confirmed.isEmpty();
    }
  }

  private final List<TableOutcome> tables;

  private RecheckOutcome(List<TableOutcome> tables) {
    this.tables = List.copyOf(tables);
  }

  /**
   * The outcome of recheck run {@code runId} for its key-list chunks.
   *
   * @param chunks per table, the run's key-list chunks in chunk order (chunk {@code i} is the
   *     {@code i}-th)
   * @param results the recheck run's results (others are left out)
   */
  public static RecheckOutcome of(
      Map<String, List<KeyList>> chunks, Collection<ChunkResult> results, String runId) {
    Map<String, Map<String, String>> classes = new HashMap<>(); // target/table → key → class
    Set<String> unverified = new HashSet<>(); // target/table/chunk/partition
    Map<String, Integer> partitions = new HashMap<>(); // table → partition count
    for (ChunkResult r : results) {
      if (!r.getRunId().equals(runId)) {
        continue;
      }
      String id = id(r.getTarget(), r.getTable());
      partitions.put(r.getTable(), r.getPartitionCount());
      if (r.getState() != ChunkState.VERIFIED) {
        unverified.add(id + "/" + r.getChunk() + "/" + r.getTablePartition());
        continue;
      }
      Map<String, String> keys = classes.computeIfAbsent(id, k -> new HashMap<>());
      r.getFailedKeys().forEach(k -> keys.put(k, "failed"));
      r.getMissedKeys().forEach(k -> keys.put(k, "missed"));
      r.getExtraKeys().forEach(k -> keys.put(k, "extra"));
      r.getInFlightKeys().forEach(k -> keys.put(k, IN_FLIGHT));
    }
    Map<String, TableOutcome> byId = new TreeMap<>();
    chunks.forEach(
        (table, list) -> {
          for (int chunk = 0; chunk < list.size(); chunk++) {
            for (Map.Entry<String, Set<String>> key : list.get(chunk).targetsByKey().entrySet()) {
              for (String target : key.getValue()) {
                String id = id(target, table);
                TableOutcome outcome =
                    byId.computeIfAbsent(
                        id,
                        k ->
                            new TableOutcome(
                                target,
                                table,
                                new TreeMap<>(),
                                new TreeSet<>(),
                                new TreeSet<>(),
                                new TreeSet<>()));
                int partition =
                    KeyPartitioner.partition(key.getKey(), partitions.getOrDefault(table, 1));
                String found = classes.getOrDefault(id, Map.of()).get(key.getKey());
                if (unverified.contains(id + "/" + chunk + "/" + partition)) {
                  outcome.unverified().add(key.getKey());
                } else if (found == null) {
                  outcome.cleared().add(key.getKey());
                } else if (found.equals(IN_FLIGHT)) {
                  outcome.unsettled().add(key.getKey());
                } else {
                  outcome.confirmed().put(key.getKey(), found);
                }
              }
            }
          }
        });
    return new RecheckOutcome(new ArrayList<>(byId.values()));
  }

  /**
   * Whether every target of {@code targets} has the verdict of every partition of every chunk the
   * recheck noted ({@code chunks}: per table, the number of key-list chunks).
   */
  public static boolean complete(
      Map<String, List<KeyList>> chunks,
      Collection<ChunkResult> results,
      String runId,
      Collection<String> targets) {
    Map<String, Set<String>> seen = new HashMap<>(); // target/table → chunk/partition
    Map<String, Integer> partitions = new HashMap<>(); // table → partition count
    for (ChunkResult r : results) {
      if (r.getRunId().equals(runId)) {
        seen.computeIfAbsent(id(r.getTarget(), r.getTable()), k -> new HashSet<>())
            .add(r.getChunk() + "/" + r.getTablePartition());
        partitions.put(r.getTable(), r.getPartitionCount());
      }
    }
    for (Map.Entry<String, List<KeyList>> table : chunks.entrySet()) {
      int noted = table.getValue().size();
      Integer count = partitions.get(table.getKey());
      if (noted > 0 && count == null) {
        return false;
      }
      for (String target : targets) {
        Set<String> got = seen.getOrDefault(id(target, table.getKey()), Set.of());
        if (noted > 0 && got.size() < (long) noted * count) {
          return false;
        }
      }
    }
    return true;
  }

  public List<TableOutcome> tables() {
    return tables;
  }

  /**
   * This outcome after a further attempt that rechecked its unsettled keys: confirmed, cleared and
   * unverified keys of both, unsettled those the further attempt left unsettled.
   */
  public RecheckOutcome followedBy(RecheckOutcome next) {
    Map<String, TableOutcome> later = new HashMap<>();
    next.tables.forEach(t -> later.put(id(t.target(), t.table()), t));
    List<TableOutcome> merged = new ArrayList<>();
    for (TableOutcome t : tables) {
      TableOutcome n = later.remove(id(t.target(), t.table()));
      if (n == null) {
        merged.add(t);
        continue;
      }
      SortedMap<String, String> confirmed = new TreeMap<>(t.confirmed());
      confirmed.putAll(n.confirmed());
      Set<String> cleared = new TreeSet<>(t.cleared());
      cleared.addAll(n.cleared());
      Set<String> unverified = new TreeSet<>(t.unverified());
      unverified.addAll(n.unverified());
      merged.add(
          new TableOutcome(
              t.target(), t.table(), confirmed, cleared, new TreeSet<>(n.unsettled()), unverified));
    }
    merged.addAll(later.values());
    merged.sort(
        java.util.Comparator.comparing(TableOutcome::target).thenComparing(TableOutcome::table));
    return new RecheckOutcome(merged);
  }

  /** The unsettled keys, each at its target, as the verdicts a further attempt plans from. */
  public List<RecheckPlan.Verdict> unsettled() {
    List<RecheckPlan.Verdict> out = new ArrayList<>();
    for (TableOutcome t : tables) {
      if (!t.unsettled().isEmpty()) {
        out.add(
            new RecheckPlan.Verdict(
                t.target(), t.table(), List.of(), List.of(), List.of(), t.unsettled()));
      }
    }
    return out;
  }

  /**
   * 3 when a key is confirmed different, else 4 when one is unverified, else 5 when one is
   * unsettled, else 0.
   */
  public ExitCode exitCode() {
    if (tables.stream().anyMatch(TableOutcome::hasDifferences)) {
      return ExitCode.DIFFERENCES;
    }
    if (tables.stream().anyMatch(t -> !t.unverified().isEmpty())) {
      return ExitCode.UNVERIFIABLE;
    }
    if (tables.stream().anyMatch(t -> !t.unsettled().isEmpty())) {
      return ExitCode.INCOMPLETE;
    }
    return ExitCode.OK;
  }

  /**
   * One line per target and table with its counts, then one line per key that is not cleared:
   * {@code <key> confirmed <class>}, {@code unsettled} or {@code unverified}.
   */
  public void print(PrintWriter out) {
    for (TableOutcome t : tables) {
      out.printf(
          "%s %s: confirmed=%d cleared=%d unsettled=%d unverified=%d%n",
          t.target(),
          t.table(),
          t.confirmed().size(),
          t.cleared().size(),
          t.unsettled().size(),
          t.unverified().size());
      t.confirmed().forEach((key, kind) -> out.printf("  %s confirmed %s%n", key, kind));
      t.unsettled().forEach(key -> out.printf("  %s unsettled%n", key));
      t.unverified().forEach(key -> out.printf("  %s unverified%n", key));
    }
    out.flush();
  }

  private static String id(String target, String table) {
    return target + "\u0000" + table;
  }
}
