package io.cdccompare.core.chunk;

/**
 * Which rows of a chunk are compared (DESIGN.md 3.2): the LAST {@code round(rows × deep / 100)}
 * rows in key order, halves rounded up (10 % of 105 rows → the last 11). Only {@code deep = 100}
 * compares every row. The compared key range is [first compared key, last key of the chunk].
 *
 * @param chunk the number of rows a chunk reads (at least 1)
 * @param deep the compared share of each chunk in percent, 1 to 100
 */
public record ChunkSampling(int chunk, int deep) {
  public static final int DEFAULT_CHUNK = 10_000;
  public static final int DEFAULT_DEEP = 10;

  public ChunkSampling {
    if (chunk <= 0) {
      throw new IllegalArgumentException("chunk must be > 0, was " + chunk);
    }
    if (deep < 1 || deep > 100) {
      throw new IllegalArgumentException("deep must be 1..100, was " + deep);
    }
  }

  public static ChunkSampling defaults() {
    return new ChunkSampling(DEFAULT_CHUNK, DEFAULT_DEEP);
  }

  /** How many of a chunk's {@code rows} are compared. */
  public int comparedRows(int rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be >= 0, was " + rows);
    }
    return (int) (((long) rows * deep + 50) / 100);
  }

  /** Index (0-based, in key order) of the first compared row of a chunk of {@code rows} rows. */
  public int firstComparedIndex(int rows) {
    return rows - comparedRows(rows);
  }
}
