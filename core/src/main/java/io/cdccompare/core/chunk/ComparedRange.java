package io.cdccompare.core.chunk;

/**
 * The key range a chunk compares on a target (docs/design.md, "Coverage"): every target row whose
 * key lies in it belongs to the chunk, and one that is not a key of the chunk is <b>extra</b>.
 *
 * <ul>
 *   <li>At {@code deep = 100} ({@link #after}) the ranges of a run's chunks meet: chunk {@code n}
 *       covers the keys after chunk {@code n - 1}'s last key up to its own last key, the first
 *       chunk is open below and the table's last chunk open above, so every target row lies in
 *       exactly one chunk's range, wherever its key is. An empty table is one chunk over {@link
 *       #EVERYTHING}.
 *   <li>Below 100 ({@link #between}) it is {@code [first compared key, last compared key]}: the
 *       rows between the compared slices of two chunks are not looked at in that run.
 * </ul>
 *
 * <p>Bounds are canonical key encodings (core {@code KeyCodec}); the upper bound is inclusive. A
 * bound is {@code null} where the range is open. Immutable.
 *
 * @param lower the lower bound, {@code null} when the range is open below
 * @param lowerInclusive whether a key equal to {@code lower} is in the range (false when open)
 * @param upper the upper bound, inclusive, {@code null} when the range is open above
 */
public record ComparedRange(String lower, boolean lowerInclusive, String upper) {

  /** The whole key space: the range of an empty table's only chunk. */
  public static final ComparedRange EVERYTHING = new ComparedRange(null, false, null);

  public ComparedRange {
    if (lower == null && lowerInclusive) {
      throw new IllegalArgumentException("a range open below has no inclusive lower bound");
    }
  }

  /**
   * The range of a chunk at {@code deep = 100}: the keys after {@code previousLastKey} ({@code
   * null} for a table's first chunk: open below) up to {@code lastKey} ({@code null} for the
   * table's last chunk: open above).
   */
  public static ComparedRange after(String previousLastKey, String lastKey) {
    return new ComparedRange(previousLastKey, false, lastKey);
  }

  /** The range {@code [first, last]} of a sampled chunk's compared rows. */
  public static ComparedRange between(String first, String last) {
    if (first == null || last == null) {
      throw new IllegalArgumentException("a sampled range has both bounds");
    }
    return new ComparedRange(first, true, last);
  }

  /** Whether the range has a lower bound. */
  public boolean boundedBelow() {
    return lower != null;
  }

  /** Whether the range has an upper bound. */
  public boolean boundedAbove() {
    return upper != null;
  }

  @Override
  public String toString() {
    return (lower == null ? "(-inf" : (lowerInclusive ? "[" : "(") + lower)
        + ", "
        + (upper == null ? "+inf)" : upper + "]");
  }
}
