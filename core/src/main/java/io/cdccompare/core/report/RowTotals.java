package io.cdccompare.core.report;

/**
 * Row outcomes summed over chunks (docs/design.md, "Outcomes of a chunk, per target"): matched,
 * failed, missed, extra and in-flight rows. Failed, missed and extra are differences; in-flight
 * rows are not (they are checked again). Immutable.
 */
public record RowTotals(long matched, long failed, long missed, long extra, long inFlight) {

  /** No row counted. */
  public static final RowTotals ZERO = new RowTotals(0, 0, 0, 0, 0);

  public RowTotals {
    requireNotNegative("matched", matched);
    requireNotNegative("failed", failed);
    requireNotNegative("missed", missed);
    requireNotNegative("extra", extra);
    requireNotNegative("inFlight", inFlight);
  }

  /** These rows and {@code other}'s. */
  public RowTotals plus(RowTotals other) {
    return new RowTotals(
        Math.addExact(matched, other.matched),
        Math.addExact(failed, other.failed),
        Math.addExact(missed, other.missed),
        Math.addExact(extra, other.extra),
        Math.addExact(inFlight, other.inFlight));
  }

  /**
   * Rows of the source the target compared: matched, failed and missed. Extra rows are the target's
   * own and in-flight rows are not compared yet.
   */
  public long compared() {
    return Math.addExact(Math.addExact(matched, failed), missed);
  }

  /** Failed, missed and extra rows: what makes a target differ from the source. */
  public long differences() {
    return failed + missed + extra;
  }

  public boolean hasDifferences() {
    return differences() > 0;
  }

  private static void requireNotNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must not be negative, was " + value);
    }
  }
}
