package io.cdccompare.verifier.stream;

import java.util.HashMap;
import java.util.Map;

/**
 * What the verifier has seen of the followed group's committed offsets, per topic and partition:
 * the offset last read, since when it stands (the first read that returned it), and the highest
 * offset the group has reached. Shared by every processor of one application, because one read
 * returns every partition of a topic: a CLOSE marker that waits on one partition learns how long
 * the other partitions stood still too. So when the applier is stopped, the CLOSE markers of a
 * topic's partitions stall one after another within one stall timeout, not one timeout each, and
 * the stream thread is not blocked a multiple of it. Thread-safe.
 */
final class FollowedOffsets {

  /**
   * One partition as seen.
   *
   * @param offset the committed offset last read, null when the group had none
   * @param sinceNanos when {@code offset} was first read ({@link Ticker#nanos()})
   * @param highest the highest committed offset read so far, -1 before any
   */
  record Seen(Long offset, long sinceNanos, long highest) {

    /** True when the group's offset is below one it had already reached: reset backwards. */
    boolean wentBack() {
      return offset != null && offset < highest;
    }
  }

  private final Map<String, Seen> seen = new HashMap<>();

  /**
   * Records a read of the group's offsets of {@code topic}, at {@code nanos}, and returns what is
   * now known of {@code partition}.
   */
  synchronized Seen observe(String topic, Map<Integer, Long> committed, int partition, long nanos) {
    for (Map.Entry<Integer, Long> e : committed.entrySet()) {
      update(topic, e.getKey(), e.getValue(), nanos);
    }
    if (!committed.containsKey(partition)) {
      update(topic, partition, null, nanos);
    }
    return seen.get(topic + "/" + partition);
  }

  private void update(String topic, int partition, Long offset, long nanos) {
    String key = topic + "/" + partition;
    Seen before = seen.get(key);
    if (before == null) {
      seen.put(key, new Seen(offset, nanos, offset == null ? -1 : offset));
    } else if (!java.util.Objects.equals(before.offset(), offset)) {
      long highest = offset == null ? before.highest() : Math.max(before.highest(), offset);
      seen.put(key, new Seen(offset, nanos, highest));
    }
  }
}
