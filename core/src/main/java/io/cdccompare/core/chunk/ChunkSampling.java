package io.cdccompare.core.chunk;

/**
 * Which rows of a chunk are compared (docs/design.md, "Coverage").
 *
 * <p>A chunk of {@code rows} rows compares {@code c = round(rows × deep / 100)} of them, halves
 * rounded up (10 % of 105 rows → 11). Only {@code deep = 100} compares every row. The chunk is cut,
 * from its end, into {@link #slices()} {@code = ceil(100 / deep)} slices of {@code c} rows, the
 * first slice (in key order) taking what is left: slice 0 is the chunk's LAST {@code c} rows, slice
 * 1 the {@code c} rows before them, and so on. Without {@code rotate} every run compares slice 0;
 * with it, the task's runs take the slices in turn, so {@code slices()} consecutive runs of an
 * unchanged table compare every row, each exactly once.
 *
 * @param chunk the number of rows a chunk reads (at least 1)
 * @param deep the compared share of each chunk in percent, 1 to 100
 * @param rotate whether successive runs compare successive slices ({@code deep.rotate})
 */
public record ChunkSampling(int chunk, int deep, boolean rotate) {
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

  /** Sampling without rotation: every run compares the last rows of each chunk. */
  public ChunkSampling(int chunk, int deep) {
    this(chunk, deep, false);
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

  /** How many slices a chunk is cut into: {@code ceil(100 / deep)}, 1 at {@code deep = 100}. */
  public int slices() {
    return (100 + deep - 1) / deep;
  }

  /**
   * The slice the run numbered {@code run} of the task (0, 1, 2, … over the task's runs of the
   * table) compares: 0 without rotation, else {@code run mod slices()}.
   */
  public int sliceOfRun(long run) {
    if (run < 0) {
      throw new IllegalArgumentException("run must be >= 0, was " + run);
    }
    return rotate ? (int) (run % slices()) : 0;
  }

  /**
   * The rows of a chunk of {@code rows} rows that slice {@code slice} compares, as indexes in key
   * order: {@code [start, end)}. Slices {@code 0 .. slices() - 2} hold {@code comparedRows(rows)}
   * rows each (fewer where the chunk runs out), the last slice every row before them; the slices
   * are disjoint and together hold every row.
   */
  public Slice slice(int rows, int slice) {
    int slices = slices();
    if (slice < 0 || slice >= slices) {
      throw new IllegalArgumentException("slice must be 0.." + (slices - 1) + ", was " + slice);
    }
    long compared = comparedRows(rows);
    long end = Math.max(0, rows - slice * compared);
    long start = slice == slices - 1 ? 0 : Math.max(0, end - compared);
    return new Slice((int) start, (int) end);
  }

  /**
   * A slice of a chunk: rows {@code [start, end)} in key order.
   *
   * @param start index of its first row
   * @param end index after its last row
   */
  public record Slice(int start, int end) {
    public Slice {
      if (start < 0 || end < start) {
        throw new IllegalArgumentException(
            "a slice is 0 <= start <= end, was " + start + ".." + end);
      }
    }

    /** Rows in the slice. */
    public int rows() {
      return end - start;
    }

    public boolean isEmpty() {
      return start == end;
    }
  }
}
