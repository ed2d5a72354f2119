package io.cdccompare.topology.verify;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Records at chosen positions, in memory. */
final class FakeTopicReader implements TopicReader {
  private final Map<String, NavigableMap<Long, byte[]>> partitions = new HashMap<>();

  void put(String topic, int partition, long offset, byte[] value) {
    partitions.computeIfAbsent(topic + "-" + partition, k -> new TreeMap<>()).put(offset, value);
  }

  @Override
  public Optional<ConsumerRecord<byte[], byte[]>> firstFrom(
      String topic, int partition, long offset, Duration timeout) {
    NavigableMap<Long, byte[]> records = partitions.get(topic + "-" + partition);
    if (records == null || records.ceilingEntry(offset) == null) {
      return Optional.empty();
    }
    Map.Entry<Long, byte[]> found = records.ceilingEntry(offset);
    return Optional.of(
        new ConsumerRecord<>(topic, partition, found.getKey(), null, found.getValue()));
  }

  @Override
  public long beginningOffset(String topic, int partition) {
    NavigableMap<Long, byte[]> records = partitions.get(topic + "-" + partition);
    return records == null || records.isEmpty() ? 0 : records.firstKey();
  }

  @Override
  public void close() {}
}
