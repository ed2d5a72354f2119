package io.cdccompare.core.stream;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a table topic stood at one moment: its name, its id (a topic deleted and created again
 * under the same name gets another id, so its offsets mean other records) and one offset per
 * partition, partition 0 first. A compare run records its table topic's end offsets when the
 * table's run starts; once the run completes they are the table's completed offsets, where the next
 * incremental run starts reading (docs: compare-producer/README.md, "Incremental runs").
 *
 * <p>Its text ({@link #encode()}, {@link #decode(String)}) is what {@code repi.comparetables}
 * stores: {@code topic=<name>;id=<topic id>;offsets=0:<offset>,1:<offset>,…}, readable in psql.
 *
 * @param offsets the offset of each partition, by partition number; each at least 0
 */
public record TopicOffsets(String topic, String topicId, List<Long> offsets) {
  private static final String NAME = "[a-zA-Z0-9._-]+";

  public TopicOffsets {
    if (topic == null || !topic.matches(NAME)) {
      throw new IllegalArgumentException("not a topic name: '" + topic + "'");
    }
    if (topicId == null || !topicId.matches("[a-zA-Z0-9_-]+")) {
      throw new IllegalArgumentException("not a topic id: '" + topicId + "'");
    }
    if (offsets.isEmpty()) {
      throw new IllegalArgumentException("topic " + topic + ": offsets of no partition");
    }
    for (int p = 0; p < offsets.size(); p++) {
      Long offset = offsets.get(p);
      if (offset == null || offset < 0) {
        throw new IllegalArgumentException(
            "topic " + topic + ": partition " + p + " has offset " + offset + ", not 0 or more");
      }
    }
    offsets = List.copyOf(offsets);
  }

  public int partitions() {
    return offsets.size();
  }

  public long offset(int partition) {
    return offsets.get(partition);
  }

  /** The stored text: {@code topic=<name>;id=<topic id>;offsets=0:<offset>,1:<offset>,…}. */
  public String encode() {
    StringBuilder out = new StringBuilder("topic=").append(topic).append(";id=").append(topicId);
    out.append(";offsets=");
    for (int p = 0; p < offsets.size(); p++) {
      out.append(p == 0 ? "" : ",").append(p).append(':').append(offsets.get(p));
    }
    return out.toString();
  }

  /**
   * Reads {@link #encode()}'s text back.
   *
   * @throws IllegalArgumentException naming what is wrong in a text it did not write
   */
  public static TopicOffsets decode(String text) {
    String[] fields = text == null ? new String[0] : text.split(";", -1);
    if (fields.length != 3
        || !fields[0].startsWith("topic=")
        || !fields[1].startsWith("id=")
        || !fields[2].startsWith("offsets=")) {
      throw new IllegalArgumentException(
          "topic offsets must read topic=<name>;id=<id>;offsets=0:<offset>,…, not '" + text + "'");
    }
    String topic = fields[0].substring("topic=".length());
    String id = fields[1].substring("id=".length());
    String[] partitions = fields[2].substring("offsets=".length()).split(",", -1);
    List<Long> offsets = new ArrayList<>(partitions.length);
    for (int p = 0; p < partitions.length; p++) {
      String expected = p + ":";
      if (!partitions[p].startsWith(expected)) {
        throw new IllegalArgumentException(
            "topic offsets of "
                + topic
                + ": expected partition "
                + p
                + " at '"
                + partitions[p]
                + "' in '"
                + text
                + "'");
      }
      try {
        offsets.add(Long.parseLong(partitions[p].substring(expected.length())));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "topic offsets of " + topic + ": partition " + p + " has no number in '" + text + "'",
            e);
      }
    }
    return new TopicOffsets(topic, id, offsets);
  }
}
