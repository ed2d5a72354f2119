package io.cdccompare.core.report;

import io.cdccompare.core.verdict.ChunkState;
import java.util.List;

/**
 * What the report needs of one partition's verdict on one chunk for one target: which partition of
 * how many, the state, the row outcomes and a sample of the keys that differ. Immutable.
 *
 * @param differenceKeys a sample of the partition's failed, missed and extra keys; at most {@link
 *     ChunkAssembly#SAMPLE_KEYS} are ever kept, so a caller may pass the first few only
 */
public record PartitionResult(
    int tablePartition,
    int partitionCount,
    ChunkState state,
    RowTotals rows,
    List<String> differenceKeys) {

  public PartitionResult {
    if (partitionCount <= 0) {
      throw new IllegalArgumentException("partitionCount must be positive, was " + partitionCount);
    }
    if (tablePartition < 0 || tablePartition >= partitionCount) {
      throw new IllegalArgumentException(
          "tablePartition " + tablePartition + " is not one of " + partitionCount + " partitions");
    }
    if (state == null || rows == null || differenceKeys == null) {
      throw new IllegalArgumentException("a partition result needs a state, rows and keys");
    }
    differenceKeys = List.copyOf(differenceKeys);
  }
}
