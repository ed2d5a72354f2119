package io.cdccompare.operations.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the Kafka timestamp of the record at given offsets, with a plain assigned consumer: no
 * group, nothing committed, no topic created. When the record at an offset is gone (compaction),
 * the next record's timestamp is taken; when no record follows up to the partition's end, there is
 * none. A partition asked at several offsets (targets at different checkpoints) is read once per
 * offset.
 */
final class RecordTimestampReader {
  private static final Duration POLL = Duration.ofMillis(200);

  private static final Comparator<TopicPartition> BY_NAME =
      Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

  private final Map<String, Object> consumerProperties;
  private final Duration timeout;

  /**
   * @param consumerProperties consumer settings, {@code bootstrap.servers} included
   */
  RecordTimestampReader(Map<String, Object> consumerProperties, Duration timeout) {
    this.consumerProperties = consumerProperties;
    this.timeout = timeout;
  }

  /**
   * @param wanted the offsets to read
   * @param end each wanted partition's end offset (no record at or past it is waited for)
   * @return the timestamp of each wanted offset that has a record with one
   * @throws TimeoutException naming the partitions not read within the timeout
   */
  Map<PartitionOffset, Instant> read(
      Collection<PartitionOffset> wanted, Map<TopicPartition, Long> end) throws TimeoutException {
    Map<PartitionOffset, Instant> out = new HashMap<>();
    if (wanted.isEmpty()) {
      return out;
    }
    Instant deadline = Instant.now().plus(timeout);
    Map<TopicPartition, Deque<Long>> queues = new HashMap<>();
    wanted.stream()
        .distinct()
        .sorted(Comparator.comparingLong(PartitionOffset::offset))
        .forEach(
            w -> queues.computeIfAbsent(w.partition(), p -> new ArrayDeque<>()).add(w.offset()));
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties())) {
      while (queues.values().stream().anyMatch(q -> !q.isEmpty())) {
        Map<TopicPartition, Long> round = new HashMap<>();
        queues.forEach(
            (p, q) -> {
              if (!q.isEmpty()) {
                round.put(p, q.poll());
              }
            });
        readRound(consumer, round, end, deadline, out);
      }
    }
    return out;
  }

  /** Reads each partition of {@code round} from its offset to its first record. */
  private void readRound(
      KafkaConsumer<byte[], byte[]> consumer,
      Map<TopicPartition, Long> round,
      Map<TopicPartition, Long> end,
      Instant deadline,
      Map<PartitionOffset, Instant> out)
      throws TimeoutException {
    Map<TopicPartition, Long> pending = new TreeMap<>(BY_NAME);
    pending.putAll(round);
    consumer.assign(pending.keySet());
    consumer.resume(consumer.paused());
    pending.forEach(consumer::seek);
    while (!pending.isEmpty()) {
      Duration left = Duration.between(Instant.now(), deadline);
      if (left.isNegative() || left.isZero()) {
        throw new TimeoutException(
            "the oldest unapplied record of "
                + names(pending)
                + " was not read within "
                + timeout.toSeconds()
                + " s");
      }
      ConsumerRecords<byte[], byte[]> records =
          consumer.poll(left.compareTo(POLL) < 0 ? left : POLL);
      for (TopicPartition p : records.partitions()) {
        Long offset = pending.get(p);
        if (offset == null) {
          continue;
        }
        for (ConsumerRecord<byte[], byte[]> record : records.records(p)) {
          if (record.offset() >= offset) {
            if (record.timestampType() != TimestampType.NO_TIMESTAMP_TYPE) {
              out.put(new PartitionOffset(p, offset), Instant.ofEpochMilli(record.timestamp()));
            }
            pending.remove(p);
            consumer.pause(List.of(p));
            break;
          }
        }
      }
      // a partition read to its end without a record (compacted away) has none
      pending
          .entrySet()
          .removeIf(
              e -> {
                Long last = end.get(e.getKey());
                return last != null && consumer.position(e.getKey(), left) >= last;
              });
    }
  }

  private static String names(Map<TopicPartition, Long> pending) {
    return String.join(", ", pending.keySet().stream().map(TopicPartition::toString).toList());
  }

  private Map<String, Object> properties() {
    Map<String, Object> props = new HashMap<>(consumerProperties);
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // an offset deleted since it was asked for: the oldest record still there is the oldest one
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cdc-compare-status");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return props;
  }
}
