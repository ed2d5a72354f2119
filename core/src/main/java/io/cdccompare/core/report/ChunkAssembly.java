package io.cdccompare.core.report;

import io.cdccompare.core.verdict.ChunkState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One chunk's verdict for one target, put together from its partitions' results (docs/design.md,
 * "Outcomes of a chunk, per target" and "Several targets"): the verdict is complete when a result
 * of each of the table topic's {@code partitionCount} partitions arrived. Results are deduplicated
 * by partition, so a replayed marker that re-emits a verdict changes nothing ({@link #holds}). The
 * chunk is unverifiable if any partition is unverifiable or stalled, in schema drift if any
 * partition is (both may hold); its rows are the sum of its partitions'.
 *
 * <p>A bounded sample of the keys that differ ({@link #SAMPLE_KEYS}) is kept for the alert; the
 * full lists stay in the results. Immutable: {@link #add} returns a new assembly.
 *
 * @param runId the run the chunk belongs to
 * @param partitions the partitions whose result arrived
 * @param sampleKeys up to {@link #SAMPLE_KEYS} failed, missed or extra keys, in arrival order
 */
public record ChunkAssembly(
    String runId,
    int partitionCount,
    Set<Integer> partitions,
    boolean unverifiable,
    boolean schemaDrift,
    RowTotals rows,
    List<String> sampleKeys) {

  /** How many keys that differ a chunk keeps for its alert. */
  public static final int SAMPLE_KEYS = 20;

  public ChunkAssembly {
    if (runId == null || runId.isEmpty()) {
      throw new IllegalArgumentException("runId must not be empty");
    }
    if (partitionCount <= 0) {
      throw new IllegalArgumentException("partitionCount must be positive, was " + partitionCount);
    }
    SortedSet<Integer> sorted = new TreeSet<>(partitions);
    if (!sorted.isEmpty() && (sorted.first() < 0 || sorted.last() >= partitionCount)) {
      throw new IllegalArgumentException(
          "partitions " + sorted + " are not all among " + partitionCount + " partitions");
    }
    partitions = Set.copyOf(sorted);
    if (rows == null) {
      throw new IllegalArgumentException("rows must not be null");
    }
    if (sampleKeys.size() > SAMPLE_KEYS) {
      throw new IllegalArgumentException(
          "at most " + SAMPLE_KEYS + " sample keys are kept, got " + sampleKeys.size());
    }
    sampleKeys = List.copyOf(sampleKeys);
  }

  /** A chunk of {@code runId} before any partition reported. */
  public static ChunkAssembly start(String runId, int partitionCount) {
    return new ChunkAssembly(
        runId, partitionCount, Set.of(), false, false, RowTotals.ZERO, List.of());
  }

  /** True when {@code partition}'s result already counted: another one is a duplicate. */
  public boolean holds(int partition) {
    return partitions.contains(partition);
  }

  /** True when every partition reported: the chunk's verdict is decided. */
  public boolean complete() {
    return partitions.size() == partitionCount;
  }

  /**
   * True when {@code result} makes the chunk unverifiable or in schema drift for the first time:
   * the moment to raise that alert, once per chunk and state. A STALLED partition counts as
   * unverifiable but raises nothing here: its verifier raised the STALLED alert when it gave up
   * waiting, with the followed group's offsets.
   */
  public boolean raisedBy(PartitionResult result) {
    return switch (result.state()) {
      case UNVERIFIABLE -> !unverifiable;
      case SCHEMA_DRIFT -> !schemaDrift;
      case VERIFIED, STALLED -> false;
    };
  }

  /**
   * This chunk with one more partition's result.
   *
   * @throws IllegalArgumentException if the result counts another number of partitions than the
   *     chunk's, or its partition already counted (check {@link #holds} first)
   */
  public ChunkAssembly add(PartitionResult result) {
    if (result.partitionCount() != partitionCount) {
      throw new IllegalArgumentException(
          "partition "
              + result.tablePartition()
              + " reports "
              + result.partitionCount()
              + " partitions, the chunk's other results "
              + partitionCount);
    }
    if (holds(result.tablePartition())) {
      throw new IllegalArgumentException(
          "partition " + result.tablePartition() + " already counted for this chunk");
    }
    Set<Integer> added = new TreeSet<>(partitions);
    added.add(result.tablePartition());
    List<String> sample = new ArrayList<>(sampleKeys);
    for (String key : result.differenceKeys()) {
      if (sample.size() == SAMPLE_KEYS) {
        break;
      }
      sample.add(key);
    }
    return new ChunkAssembly(
        runId,
        partitionCount,
        added,
        unverifiable
            || result.state() == ChunkState.UNVERIFIABLE
            || result.state() == ChunkState.STALLED,
        schemaDrift || result.state() == ChunkState.SCHEMA_DRIFT,
        rows.plus(result.rows()),
        sample);
  }
}
