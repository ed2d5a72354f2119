package io.cdccompare.core.recheck;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which keys a recheck compares again (docs/design.md, "Recheck"): from the verdicts of a finished
 * run, per table, each key with the targets that listed it. A key is rechecked only at the targets
 * whose verdict listed it: a key in flight on one target is not compared again on another.
 */
public final class RecheckPlan {

  /** Which keys of a run a recheck takes. */
  public enum What {
    /** The keys that were in flight. */
    IN_FLIGHT,
    /** The failed, missed and extra keys. */
    DIFFERENCES,
    /** Both. */
    ALL;

    /** Parses {@code in-flight}, {@code differences} or {@code all}. */
    public static What parse(String text) {
      for (What what : values()) {
        if (what.text().equals(text)) {
          return what;
        }
      }
      throw new IllegalArgumentException(
          "--what must be in-flight, differences or all, was '" + text + "'");
    }

    public String text() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean inFlight() {
      return this != DIFFERENCES;
    }

    boolean differences() {
      return this != IN_FLIGHT;
    }
  }

  /**
   * The keys of one target's verdicts on one table (the union over the run's chunks and
   * partitions).
   */
  public record Verdict(
      String target,
      String table,
      Collection<String> failed,
      Collection<String> missed,
      Collection<String> extra,
      Collection<String> inFlight) {}

  /** table → key → targets, in table and key order. */
  private final SortedMap<String, SortedMap<String, Set<String>>> byTable;

  private RecheckPlan(SortedMap<String, SortedMap<String, Set<String>>> byTable) {
    this.byTable = byTable;
  }

  /** The keys of {@code verdicts} that {@code what} takes. */
  public static RecheckPlan of(Collection<Verdict> verdicts, What what) {
    SortedMap<String, SortedMap<String, Set<String>>> byTable = new TreeMap<>();
    for (Verdict v : verdicts) {
      List<Collection<String>> taken = new ArrayList<>();
      if (what.inFlight()) {
        taken.add(v.inFlight());
      }
      if (what.differences()) {
        taken.add(v.failed());
        taken.add(v.missed());
        taken.add(v.extra());
      }
      for (Collection<String> keys : taken) {
        for (String key : keys) {
          byTable
              .computeIfAbsent(v.table(), t -> new TreeMap<>())
              .computeIfAbsent(key, k -> new TreeSet<>())
              .add(v.target());
        }
      }
    }
    return new RecheckPlan(byTable);
  }

  public boolean isEmpty() {
    return byTable.isEmpty();
  }

  /** The tables with keys to recheck, in order. */
  public Set<String> tables() {
    return Collections.unmodifiableSet(byTable.keySet());
  }

  /** How many (key, target) comparisons the plan makes. */
  public long comparisons() {
    return byTable.values().stream()
        .flatMap(keys -> keys.values().stream())
        .mapToLong(Set::size)
        .sum();
  }

  /** A table's keys with the targets that recheck each, in key order. */
  public SortedMap<String, Set<String>> keys(String table) {
    return Collections.unmodifiableSortedMap(byTable.getOrDefault(table, new TreeMap<>()));
  }

  /** A table's keys cut into key-list chunks of at most {@code maxKeys} keys, in key order. */
  public List<KeyList> chunks(String table, int maxKeys) {
    if (maxKeys <= 0) {
      throw new IllegalArgumentException("maxKeys must be positive, was " + maxKeys);
    }
    List<KeyList> chunks = new ArrayList<>();
    Map<String, Set<String>> current = new LinkedHashMap<>();
    for (Map.Entry<String, Set<String>> entry : keys(table).entrySet()) {
      current.put(entry.getKey(), entry.getValue());
      if (current.size() == maxKeys) {
        chunks.add(new KeyList(current));
        current = new LinkedHashMap<>();
      }
    }
    if (!current.isEmpty()) {
      chunks.add(new KeyList(current));
    }
    return chunks;
  }
}
