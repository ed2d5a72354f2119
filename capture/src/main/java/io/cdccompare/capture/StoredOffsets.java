package io.cdccompare.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the source offset the engine last committed to its Kafka offsets topic (the format of Kafka
 * Connect's {@code KafkaOffsetBackingStore}: key {@code ["<engine>",{"server":"<prefix>"}]}, value
 * a JSON map with {@code lsn}, {@code lsn_commit}, {@code lsn_proc}, {@code txId}). Empty when the
 * capture never committed one.
 */
final class StoredOffsets {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StoredOffsets() {}

  /**
   * The highest LSN of the last stored offset of this engine, if any.
   *
   * @param clientSettings the capture's Kafka client settings ({@code bootstrap.servers} and the
   *     {@code admin.*} ones: security and the like); those a consumer does not know are left out
   */
  static Optional<Long> lastLsn(
      Map<String, Object> clientSettings, String topic, String engine, String server) {
    Map<String, Object> props = consumerProps(clientSettings);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .collect(Collectors.toList());
      if (partitions.isEmpty()) {
        return Optional.empty();
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      Optional<Long> last = Optional.empty();
      while (!caughtUp(consumer, end)) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (belongsTo(r.key(), engine, server)) {
            last = r.value() == null ? Optional.empty() : highestLsn(r.value());
          }
        }
      }
      return last;
    }
  }

  /** The reading consumer's settings: the client settings a consumer knows, no group, bytes. */
  static Map<String, Object> consumerProps(Map<String, Object> clientSettings) {
    Map<String, Object> props = new HashMap<>(clientSettings);
    props.keySet().retainAll(ConsumerConfig.configNames());
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return props;
  }

  private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
  }

  private static boolean belongsTo(byte[] key, String engine, String server) {
    if (key == null) {
      return false;
    }
    try {
      JsonNode node = JSON.readTree(key);
      return node.isArray()
          && node.size() == 2
          && engine.equals(node.get(0).asText())
          && server.equals(node.get(1).path("server").asText());
    } catch (IOException e) {
      return false;
    }
  }

  private static Optional<Long> highestLsn(byte[] value) {
    try {
      JsonNode node = JSON.readTree(value);
      long max = -1;
      for (String field : List.of("lsn", "lsn_commit", "lsn_proc")) {
        if (node.hasNonNull(field)) {
          max = Math.max(max, node.get(field).asLong());
        }
      }
      return max < 0 ? Optional.empty() : Optional.of(max);
    } catch (IOException e) {
      throw new IllegalStateException("unreadable stored offset: " + e.getMessage(), e);
    }
  }
}
