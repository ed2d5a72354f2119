package io.cdccompare.verifier.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Records at chosen positions, in memory. */
final class FakeTopicReader implements TopicReader {
  private final Map<String, NavigableMap<Long, byte[]>> partitions = new HashMap<>();
  private final Map<String, NavigableMap<Long, String>> keys = new HashMap<>();

  /** The ranges {@link #keysBetween} was asked for: {@code topic-partition:[from,until)}. */
  final List<String> keyReads = new ArrayList<>();

  /**
   * The answers of the next {@link #endOffset} calls, in order; once used up, the offset after the
   * last keyed record put of the partition (0 if none).
   */
  final java.util.Deque<Long> ends = new java.util.ArrayDeque<>();

  /** When true, {@link #keysBetween} answers that the range could not be read in time. */
  boolean keysUnreadable;

  /** A record of a table topic with this key (null for a marker) at {@code offset}. */
  void putKey(String topic, int partition, long offset, String key) {
    keys.computeIfAbsent(topic + "-" + partition, k -> new TreeMap<>()).put(offset, key);
  }

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
  public Optional<Set<String>> keysBetween(
      String topic, int partition, long from, long until, Duration timeout) {
    keyReads.add(topic + "-" + partition + ":[" + from + "," + until + ")");
    if (keysUnreadable) {
      return Optional.empty();
    }
    Set<String> found = new LinkedHashSet<>();
    if (from < until) {
      keys
          .getOrDefault(topic + "-" + partition, new TreeMap<>())
          .subMap(from, until)
          .values()
          .stream()
          .filter(java.util.Objects::nonNull)
          .forEach(found::add);
    }
    return Optional.of(found);
  }

  @Override
  public long endOffset(String topic, int partition) {
    if (!ends.isEmpty()) {
      return ends.poll();
    }
    NavigableMap<Long, String> keyed = keys.get(topic + "-" + partition);
    return keyed == null || keyed.isEmpty() ? 0 : keyed.lastKey() + 1;
  }

  @Override
  public long beginningOffset(String topic, int partition) {
    NavigableMap<Long, byte[]> records = partitions.get(topic + "-" + partition);
    return records == null || records.isEmpty() ? 0 : records.firstKey();
  }

  @Override
  public void close() {}
}
