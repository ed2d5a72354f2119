package io.cdccompare.core.report;

/**
 * What the report learns of a chunk the compare producer noted: the rows it read on the source, how
 * many of them it compared, and the run's slice. Every hash record of a chunk carries the same
 * values, for all partitions. Immutable.
 *
 * @param rows rows the chunk read on the source, all partitions
 * @param comparedRows rows of the chunk hashed and compared, all partitions; at most {@code rows}
 * @param slice which slice of the chunk the run compares
 */
public record NotedChunk(long rows, long comparedRows, RunSlice slice) {

  public NotedChunk {
    if (rows < 0 || comparedRows < 0 || comparedRows > rows) {
      throw new IllegalArgumentException(
          "a chunk compares 0 to all of its rows, was " + comparedRows + " of " + rows);
    }
    if (slice == null) {
      throw new IllegalArgumentException("slice must not be null");
    }
  }
}
