package io.cdccompare.verifier.apply;

import io.cdccompare.core.stream.SourcePosition;

/**
 * Where a record was read: its topic, partition and offset, and the source position of the change
 * it carries ({@code null} for a record without one).
 */
public record RecordPosition(String topic, int partition, long offset, SourcePosition source) {

  public RecordPosition {
    if (topic == null || topic.isEmpty()) {
      throw new IllegalArgumentException("a record position needs a topic");
    }
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "partition and offset are never negative: " + topic + "-" + partition + "@" + offset);
    }
  }

  public static RecordPosition of(String topic, int partition, long offset) {
    return new RecordPosition(topic, partition, offset, null);
  }

  @Override
  public String toString() {
    return topic + "-" + partition + "@" + offset;
  }
}
