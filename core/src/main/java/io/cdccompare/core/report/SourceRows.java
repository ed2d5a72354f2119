package io.cdccompare.core.report;

/**
 * The source side of a run's totals: rows its noted chunks read on the source, how many of them
 * this run compared, and how many the runs of its coverage cycle compared ({@link TableRun}).
 * Summed over tables for a task. Immutable.
 *
 * @param read rows the noted chunks read on the source, each chunk counted once
 * @param compared rows of those chunks this run compared (the run's slice of each chunk)
 * @param covered rows compared by the runs of the current coverage cycle, this one included
 */
public record SourceRows(long read, long compared, long covered) {

  /** No row read. */
  public static final SourceRows ZERO = new SourceRows(0, 0, 0);

  public SourceRows {
    if (read < 0 || compared < 0 || covered < 0) {
      throw new IllegalArgumentException(
          "source rows must not be negative, were read="
              + read
              + " compared="
              + compared
              + " covered="
              + covered);
    }
  }

  /** These rows and {@code other}'s. */
  public SourceRows plus(SourceRows other) {
    return new SourceRows(
        Math.addExact(read, other.read),
        Math.addExact(compared, other.compared),
        Math.addExact(covered, other.covered));
  }

  /**
   * The share of the source rows the cycle compared, 0 to 1: {@code min(1, covered / read)}, and 1
   * when nothing was read (an empty table is covered whole by its one chunk). Rows that changed
   * between the runs of a cycle make it an estimate, never more than 1.
   */
  public double coverage() {
    if (read == 0) {
      return 1.0;
    }
    return Math.min(1.0, (double) covered / read);
  }
}
