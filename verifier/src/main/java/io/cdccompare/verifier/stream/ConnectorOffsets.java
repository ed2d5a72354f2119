package io.cdccompare.verifier.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The source offsets a Kafka Connect worker stored for one Debezium PostgreSQL connector, read from
 * the worker's offsets topic (key {@code ["<connector>",{…}]}, value {@code {"lsn_commit":…,…}}).
 * Connect stores a source offset only after every record sent before it was acknowledged, and
 * Debezium's {@code lsn_commit} is the commit of the last transaction it completed: once it is
 * above a note's last commit LSN, the note's transaction and everything before it are in their
 * partitions (docs/design.md, "Stock Debezium pipelines"). Not thread-safe.
 */
final class ConnectorOffsets implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String topic;
  private final String connector;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private OptionalLong lastCommit = OptionalLong.empty();

  ConnectorOffsets(Map<String, Object> clientConfig, String topic, String connector) {
    this.topic = topic;
    this.connector = connector;
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    this.consumer = new KafkaConsumer<>(config);
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    if (partitions.isEmpty()) {
      consumer.close();
      throw new IllegalArgumentException(
          "connect.offsets.topic: topic "
              + topic
              + " does not exist; name the worker's offset.storage.topic");
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
  }

  /**
   * The connector's stored {@code lsn_commit} after reading the offsets topic to its end; empty
   * while it stored none (before its first streamed transaction completed).
   */
  OptionalLong lastCommit() {
    Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
    while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
        read(record);
      }
    }
    return lastCommit;
  }

  private void read(ConsumerRecord<byte[], byte[]> record) {
    if (record.key() == null) {
      return;
    }
    try {
      JsonNode key = JSON.readTree(record.key());
      if (!key.isArray() || !connector.equals(key.path(0).asText(null))) {
        return;
      }
      if (record.value() == null) {
        lastCommit = OptionalLong.empty(); // the connector's offsets were reset
        return;
      }
      JsonNode commit = JSON.readTree(record.value()).get("lsn_commit");
      if (commit != null && commit.canConvertToLong()) {
        lastCommit = OptionalLong.of(commit.asLong());
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "topic "
              + topic
              + " partition "
              + record.partition()
              + " offset "
              + record.offset()
              + " is no Kafka Connect source offset: "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
