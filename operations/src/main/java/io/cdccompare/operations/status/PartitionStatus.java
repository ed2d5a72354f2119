package io.cdccompare.operations.status;

/**
 * One target on one partition of a table topic (see {@link PartitionLag} for what the offsets
 * mean). A value is {@code null} where it is unknown: no checkpoint yet, no committed group offset,
 * Kafka not reachable.
 *
 * @param checkpoint last offset applied to the target (inclusive)
 * @param startOffset first offset the partition still holds
 * @param endOffset offset the next record written will get
 * @param lagRecords records written and not applied yet: {@code end - (checkpoint + 1)}
 * @param lagSeconds age of the oldest unapplied record (now minus its Kafka timestamp), {@code 0}
 *     without lag
 * @param groupOffset the offset the target's consumer group committed: the next record it will
 *     read, so {@code checkpoint + 1} when Kafka and the target agree
 * @param problem a position that cannot be continued ({@code RESYNC_NEEDED: …}), or {@code null}
 * @param followOffset for a verify-only target, the offset the followed group (the other applier)
 *     committed: the next record it will read; {@code null} when it committed none or the target
 *     follows no group
 * @param followLagRecords records written and not yet passed by the followed group: {@code end -
 *     followOffset}, {@code end - start} when it committed none; {@code null} when the target
 *     follows no group or Kafka could not be read
 */
public record PartitionStatus(
    String topic,
    int partition,
    Long checkpoint,
    Long startOffset,
    Long endOffset,
    Long lagRecords,
    Double lagSeconds,
    Long groupOffset,
    String problem,
    Long followOffset,
    Long followLagRecords) {

  /** A partition of a target that follows no group (it applies the changes itself). */
  public PartitionStatus(
      String topic,
      int partition,
      Long checkpoint,
      Long startOffset,
      Long endOffset,
      Long lagRecords,
      Double lagSeconds,
      Long groupOffset,
      String problem) {
    this(
        topic,
        partition,
        checkpoint,
        startOffset,
        endOffset,
        lagRecords,
        lagSeconds,
        groupOffset,
        problem,
        null,
        null);
  }
}
