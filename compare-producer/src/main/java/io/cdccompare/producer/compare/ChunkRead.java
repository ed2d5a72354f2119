package io.cdccompare.producer.compare;

import java.util.List;

/**
 * What one chunk read gave: how many rows the chunk has, its compared key range and the keys and
 * hashes of the compared rows in key order ({@code hashes} holds {@code keys.size() × hashLength}
 * bytes, hash {@code i} at {@code i × hashLength}).
 *
 * @param firstComparedKey the key of the first compared row, {@code null} when none is compared
 * @param lastKey the key of the chunk's last row, {@code null} for an empty chunk
 * @param moreRows whether the snapshot held a row after the chunk (the read looks one row ahead, so
 *     the next chunk needs no probe)
 */
record ChunkRead(
    int rows,
    String firstComparedKey,
    String lastKey,
    List<String> keys,
    byte[] hashes,
    boolean moreRows) {

  static ChunkRead empty() {
    return new ChunkRead(0, null, null, List.of(), new byte[0], false);
  }

  int comparedRows() {
    return keys.size();
  }
}
