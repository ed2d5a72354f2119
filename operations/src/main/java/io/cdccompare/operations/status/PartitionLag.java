package io.cdccompare.operations.status;

import java.time.Duration;
import java.time.Instant;

/**
 * How far one target is behind on one partition of a table topic: pure arithmetic on three offsets.
 *
 * <ul>
 *   <li>the <b>checkpoint</b> is the offset of the last record the target applied (inclusive), from
 *       its {@code cdc_compare_checkpoints} row; there is none before its first batch;
 *   <li>the <b>start offset</b> is the first offset the partition still holds (retention deletes
 *       older records);
 *   <li>the <b>end offset</b> is the offset the next record written to the partition will get
 *       (Kafka's "latest" offset, the high watermark): the partition holds {@code [start, end)}.
 * </ul>
 *
 * The next record to apply is {@code checkpoint + 1}, or the start offset without a checkpoint (a
 * verifier starts from the earliest record). The lag is {@code end - next} records, and every
 * record counts: row changes, the tombstone that follows each delete, and the compare markers the
 * capture writes into every partition of a noted table. A next offset below the start offset means
 * records were deleted before this target applied them; one past the end offset means the topic was
 * recreated under the checkpoint. Both are positions that cannot be continued ({@code
 * RESYNC_NEEDED}).
 *
 * @param next offset of the next record to apply
 * @param oldest offset of the oldest unapplied record the partition still holds (read for its
 *     timestamp when {@code records > 0})
 * @param records records written to the partition and not applied yet; never negative
 * @param problem why the position cannot be continued, or {@code null}
 */
public record PartitionLag(long next, long oldest, long records, String problem) {

  /**
   * @param checkpoint the last applied offset, {@code null} when the target has none
   * @throws IllegalArgumentException if the offsets are not {@code 0 <= start <= end}
   */
  public static PartitionLag of(Long checkpoint, long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "offsets must be 0 <= start <= end, were start " + start + " end " + end);
    }
    if (checkpoint == null) {
      return new PartitionLag(start, start, end - start, null);
    }
    long next = checkpoint + 1;
    if (next > end) {
      return new PartitionLag(
          next,
          end,
          0,
          "RESYNC_NEEDED: checkpoint "
              + checkpoint
              + " is past the end offset "
              + end
              + " (topic recreated?)");
    }
    if (next < start) {
      return new PartitionLag(
          next,
          start,
          end - next,
          "RESYNC_NEEDED: records "
              + next
              + ".."
              + (start - 1)
              + " were deleted before this target applied them");
    }
    return new PartitionLag(next, next, end - next, null);
  }

  /**
   * The lag in time: how long the oldest unapplied record has waited, {@code now} minus its Kafka
   * timestamp; zero without lag, and never negative (clocks of producer and reader may differ).
   */
  public static Duration age(long records, Instant oldestTimestamp, Instant now) {
    if (records == 0) {
      return Duration.ZERO;
    }
    Duration age = Duration.between(oldestTimestamp, now);
    return age.isNegative() ? Duration.ZERO : age;
  }
}
