package io.cdccompare.core.verdict;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The row outcomes of one chunk in one partition of the table topic, for one target
 * (docs/design.md, "Outcomes of a chunk, per target"): every compared row counts in exactly one of
 * matched, failed, missed, extra or in-flight. The keys of every outcome but matched are kept
 * (canonical key encodings): failed and missed drive repair, in-flight drives recheck, extra is
 * reported.
 *
 * <p>Each key list is sorted ({@link String#compareTo}), holds no key twice, shares no key with
 * another list and has as many keys as its count. Immutable.
 */
public record ChunkVerdict(
    long matched,
    long failed,
    long missed,
    long extra,
    long inFlight,
    List<String> failedKeys,
    List<String> missedKeys,
    List<String> extraKeys,
    List<String> inFlightKeys) {

  private static final ChunkVerdict EMPTY =
      new ChunkVerdict(0, 0, 0, 0, 0, List.of(), List.of(), List.of(), List.of());

  public ChunkVerdict {
    if (matched < 0) {
      throw new IllegalArgumentException("matched must not be negative, was " + matched);
    }
    failedKeys = sortedKeys("failed", failed, failedKeys);
    missedKeys = sortedKeys("missed", missed, missedKeys);
    extraKeys = sortedKeys("extra", extra, extraKeys);
    inFlightKeys = sortedKeys("inFlight", inFlight, inFlightKeys);
    Set<String> all = new HashSet<>();
    for (List<String> keys : List.of(failedKeys, missedKeys, extraKeys, inFlightKeys)) {
      for (String key : keys) {
        if (!all.add(key)) {
          throw new IllegalArgumentException("key '" + key + "' has two outcomes");
        }
      }
    }
  }

  /** A verdict from its key lists (in any order) and the number of matched rows. */
  public static ChunkVerdict of(
      long matched,
      List<String> failedKeys,
      List<String> missedKeys,
      List<String> extraKeys,
      List<String> inFlightKeys) {
    return new ChunkVerdict(
        matched,
        failedKeys.size(),
        missedKeys.size(),
        extraKeys.size(),
        inFlightKeys.size(),
        failedKeys,
        missedKeys,
        extraKeys,
        inFlightKeys);
  }

  /** No row compared: the verdict of a chunk that compared nothing in this partition. */
  public static ChunkVerdict empty() {
    return EMPTY;
  }

  /** Every row counted, whatever its outcome. */
  public long compared() {
    return matched + failed + missed + extra + inFlight;
  }

  /** True when every compared row matched (in-flight rows are not differences). */
  public boolean hasDifferences() {
    return failed + missed + extra > 0;
  }

  /**
   * This verdict with those of {@code changed} that it counts failed, missed or extra counted in
   * flight instead: keys known, after the comparison, to have changed while the target was read (a
   * verify-only target's applier wrote them). Matched rows stay matched.
   */
  public ChunkVerdict withInFlight(Set<String> changed) {
    List<String> moved = new ArrayList<>(inFlightKeys);
    List<String> stillFailed = keep(failedKeys, changed, moved);
    List<String> stillMissed = keep(missedKeys, changed, moved);
    List<String> stillExtra = keep(extraKeys, changed, moved);
    if (moved.size() == inFlightKeys.size()) {
      return this;
    }
    return of(matched, stillFailed, stillMissed, stillExtra, moved);
  }

  private static List<String> keep(List<String> keys, Set<String> changed, List<String> moved) {
    List<String> kept = new ArrayList<>(keys.size());
    for (String key : keys) {
      (changed.contains(key) ? moved : kept).add(key);
    }
    return kept;
  }

  private static List<String> sortedKeys(String outcome, long count, List<String> keys) {
    if (count < 0) {
      throw new IllegalArgumentException(outcome + " must not be negative, was " + count);
    }
    if (keys == null) {
      throw new IllegalArgumentException(outcome + " keys must not be null");
    }
    if (keys.size() != count) {
      throw new IllegalArgumentException(
          outcome + " counts " + count + " rows but keeps " + keys.size() + " keys");
    }
    List<String> sorted = new ArrayList<>(keys);
    for (String key : sorted) {
      if (key == null) {
        throw new IllegalArgumentException(outcome + " keys must not contain null");
      }
    }
    sorted.sort(null);
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).equals(sorted.get(i - 1))) {
        throw new IllegalArgumentException(
            outcome + " keys hold '" + sorted.get(i) + "' more than once");
      }
    }
    return List.copyOf(sorted);
  }
}
