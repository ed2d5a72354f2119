package io.cdccompare.core.recheck;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The keys one key-list chunk compares (docs/design.md, "Key-list chunks"), and at which targets:
 * the chunk of a RECHECK or INCREMENTAL run that is read on the source and looked up on each target
 * by key instead of by key range.
 *
 * @param targetsByKey each encoded key, in the order the chunk lists them, with the names of the
 *     targets that compare it; the sets are all empty (every target compares every key) or none is
 */
public record KeyList(Map<String, Set<String>> targetsByKey) {

  public KeyList {
    if (targetsByKey.isEmpty()) {
      throw new IllegalArgumentException("a key-list chunk needs at least one key");
    }
    Map<String, Set<String>> copy = new LinkedHashMap<>();
    targetsByKey.forEach(
        (key, targets) -> {
          if (key == null) {
            throw new IllegalArgumentException("a key-list chunk holds a null key");
          }
          copy.put(key, Collections.unmodifiableSet(new TreeSet<>(targets)));
        });
    long named = copy.values().stream().filter(t -> !t.isEmpty()).count();
    if (named != 0 && named != copy.size()) {
      throw new IllegalArgumentException(
          "a key-list chunk names the targets of every key or of none, not of "
              + named
              + " of "
              + copy.size());
    }
    targetsByKey = Collections.unmodifiableMap(copy);
  }

  /** A chunk whose every key is compared at every target. */
  public static KeyList everywhere(List<String> keys) {
    Map<String, Set<String>> map = new LinkedHashMap<>();
    keys.forEach(key -> map.put(key, Set.of()));
    return new KeyList(map);
  }

  /** The keys, in the chunk's order. */
  public List<String> keys() {
    return new ArrayList<>(targetsByKey.keySet());
  }

  public int size() {
    return targetsByKey.size();
  }

  /** Whether every key is compared at every target (no target names anywhere). */
  public boolean everyTarget() {
    return targetsByKey.values().stream().allMatch(Set::isEmpty);
  }

  /**
   * Which of {@code keys} (a subset of this chunk's) each target compares, by target name: what a
   * hash record's {@code targetKeys} holds. Empty when {@link #everyTarget()}.
   */
  public Map<String, List<String>> keysByTarget(List<String> keys) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String key : keys) {
      Set<String> targets = targetsByKey.get(key);
      if (targets == null) {
        throw new IllegalArgumentException("key '" + key + "' is not in this key-list chunk");
      }
      for (String target : targets) {
        out.computeIfAbsent(target, t -> new ArrayList<>()).add(key);
      }
    }
    return out;
  }
}
