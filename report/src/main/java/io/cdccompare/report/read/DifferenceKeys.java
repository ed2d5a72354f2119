package io.cdccompare.report.read;

import java.util.Collection;
import java.util.List;

/**
 * The keys of the failed, missed and extra rows of one table of one run on one target, from the
 * chunk results: each kind deduplicated, sorted ({@link KeyOrder}) and cut at the shown maximum.
 */
public record DifferenceKeys(Keys failed, Keys missed, Keys extra) {

  /**
   * One kind of keys.
   *
   * @param shown the first keys in key order, at most the maximum asked for
   * @param total how many distinct keys the results hold
   */
  public record Keys(List<String> shown, long total) {
    public Keys {
      shown = List.copyOf(shown);
      if (total < shown.size()) {
        throw new IllegalArgumentException(
            "total " + total + " is less than the " + shown.size() + " keys shown");
      }
    }

    /**
     * The first {@code maxKeys} of {@code sorted} (0: all), with their total.
     *
     * @param sorted distinct keys, already in key order ({@link KeyOrder})
     */
    static Keys first(Collection<String> sorted, int maxKeys) {
      List<String> all = List.copyOf(sorted);
      return new Keys(
          maxKeys == 0 || all.size() <= maxKeys ? all : all.subList(0, maxKeys), all.size());
    }

    /** Keys that exist but are not shown. */
    public long omitted() {
      return total - shown.size();
    }
  }
}
