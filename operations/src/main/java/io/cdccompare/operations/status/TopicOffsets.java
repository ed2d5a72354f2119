package io.cdccompare.operations.status;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The table topics as Kafka showed them at one moment: each partition's offsets, the topics that do
 * not exist, and the offsets each verifier's consumer group committed.
 *
 * @param partitions each existing partition's {@code [start, end)} offsets
 * @param missingTopics table topics that do not exist
 * @param groupOffsets per application id, the committed offset of each partition it committed
 * @param groupErrors per application id whose offsets could not be read, the one-line reason
 */
record TopicOffsets(
    Map<TopicPartition, Range> partitions,
    Set<String> missingTopics,
    Map<String, Map<TopicPartition, Long>> groupOffsets,
    Map<String, String> groupErrors) {

  TopicOffsets {
    partitions = Map.copyOf(partitions);
    missingTopics = Set.copyOf(missingTopics);
    groupOffsets = Map.copyOf(groupOffsets);
    groupErrors = Map.copyOf(groupErrors);
  }

  /**
   * A partition's offsets: it holds the records {@code [start, end)}; {@code end} is the offset the
   * next record written will get.
   */
  record Range(long start, long end) {}

  /** The partitions of one topic, in partition order. */
  List<TopicPartition> partitionsOf(String topic) {
    return partitions.keySet().stream()
        .filter(p -> p.topic().equals(topic))
        .sorted(Comparator.comparingInt(TopicPartition::partition))
        .toList();
  }
}
