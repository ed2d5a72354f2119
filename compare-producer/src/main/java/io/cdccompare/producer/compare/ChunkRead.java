package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ComparedRange;
import java.util.List;

/**
 * What one chunk read gave: how many rows the chunk has, the key range its compared rows cover on a
 * target and the keys and hashes of the compared rows in key order ({@code hashes} holds {@code
 * keys.size() × hashLength} bytes, hash {@code i} at {@code i × hashLength}).
 *
 * @param range the key range the chunk compares on a target ({@link ComparedRange}); {@code null}
 *     when it compares none (a sampled chunk too small to have a compared row)
 * @param firstComparedKey the key of the first compared row, {@code null} when none is compared
 * @param lastComparedKey the key of the last compared row, {@code null} when none is compared
 * @param lastKey the key of the chunk's last row (the position after it), {@code null} for an empty
 *     chunk
 * @param moreRows whether the snapshot held a row after the chunk (the read looks one row ahead, so
 *     the next chunk needs no probe): a chunk without is the table's last, its tail
 */
record ChunkRead(
    int rows,
    ComparedRange range,
    String firstComparedKey,
    String lastComparedKey,
    String lastKey,
    List<String> keys,
    byte[] hashes,
    boolean moreRows) {

  /** A chunk without rows: the table's tail, comparing {@code range} (or nothing). */
  static ChunkRead empty(ComparedRange range) {
    return new ChunkRead(0, range, null, null, null, List.of(), new byte[0], false);
  }

  int comparedRows() {
    return keys.size();
  }
}
