package io.cdccompare.core.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a table topic still holds every record an incremental run must read: from the table's
 * completed offsets (the start of its last completed run) to the topic's end. An incremental run
 * that read only part of them would compare only part of the changed keys and say nothing, so it
 * must not start: a topic recreated under the same name (another topic id), with another partition
 * count, or whose older records are gone (retention, {@code deleteRecords}: the earliest offset
 * passed the completed offset) or were truncated (the end is before the completed offset) needs a
 * full run. Pure: the offsets are read by the caller.
 */
public final class ChangeRange {
  private ChangeRange() {}

  /**
   * Why the topic no longer holds the range, naming each partition and its missing offsets; empty
   * when it holds every record from {@code completed} on.
   *
   * @param completed the table's completed offsets
   * @param earliest the topic's earliest offset per partition now (its log start), with its id now
   * @param end the topic's end offset per partition now
   */
  public static Optional<String> lost(
      TopicOffsets completed, TopicOffsets earliest, TopicOffsets end) {
    if (!completed.topic().equals(earliest.topic())) {
      return Optional.of(
          "the last completed run read topic "
              + completed.topic()
              + ", the table's topic is now "
              + earliest.topic()
              + ": the changes since are not in it");
    }
    if (!completed.topicId().equals(earliest.topicId())
        || !completed.topicId().equals(end.topicId())) {
      return Optional.of(
          "topic "
              + completed.topic()
              + " was recreated (id "
              + completed.topicId()
              + " when the last run completed, "
              + earliest.topicId()
              + " now): the records since are gone");
    }
    if (completed.partitions() != earliest.partitions()
        || completed.partitions() != end.partitions()) {
      return Optional.of(
          "topic "
              + completed.topic()
              + " has "
              + end.partitions()
              + " partitions, "
              + completed.partitions()
              + " when the last run completed: its keys moved to other partitions");
    }
    List<String> gaps = new ArrayList<>();
    for (int p = 0; p < completed.partitions(); p++) {
      long from = completed.offset(p);
      if (earliest.offset(p) > from) {
        gaps.add(
            "records ["
                + from
                + ", "
                + earliest.offset(p)
                + ") of partition "
                + p
                + " are gone (its earliest offset is "
                + earliest.offset(p)
                + ")");
      } else if (end.offset(p) < from) {
        gaps.add(
            "partition "
                + p
                + " ends at offset "
                + end.offset(p)
                + ", before the completed offset "
                + from
                + ": records ["
                + end.offset(p)
                + ", "
                + from
                + ") were truncated");
      }
    }
    return gaps.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", gaps));
  }
}
