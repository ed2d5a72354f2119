package io.cdccompare.producer.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.stream.CaptureNotices;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the capture's notices topic from the end offsets it had when opened: opened before a signal
 * is sent, it sees every notice of that signal. Not thread-safe; one per re-send.
 */
final class NoticeWatch implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofMillis(200);

  /** A notice of an incremental snapshot. */
  record Notice(String id, String type, Map<String, String> data) {}

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final String topic;

  /**
   * @throws IllegalStateException when the topic does not exist (no capture ever ran with
   *     notifications)
   */
  NoticeWatch(Map<String, Object> consumerSettings, String topic) {
    Map<String, Object> settings = new java.util.HashMap<>(consumerSettings);
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    this.consumer = new KafkaConsumer<>(settings);
    this.topic = topic;
    try {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (infos == null || infos.isEmpty()) {
        throw new IllegalStateException(
            "notices topic " + topic + " does not exist: has a capture of this version run?");
      }
      List<TopicPartition> partitions = new ArrayList<>();
      infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
      consumer.assign(partitions);
      consumer.endOffsets(partitions).forEach(consumer::seek);
    } catch (RuntimeException e) {
      consumer.close();
      throw e;
    }
  }

  String topic() {
    return topic;
  }

  /** True when the topic exists on the broker. */
  boolean topicExists(String name) {
    List<PartitionInfo> infos = consumer.partitionsFor(name, Duration.ofSeconds(30));
    return infos != null && !infos.isEmpty();
  }

  /**
   * The notices of the signal read until {@code end} (a {@link System#nanoTime()}): every notice
   * read is given to {@code sink}; returns the ending notice ({@code COMPLETED} or {@code ABORTED})
   * or empty when none came before {@code end}.
   */
  Optional<Notice> awaitEnd(String signalId, long end, java.util.function.Consumer<Notice> sink)
      throws InterruptedException {
    while (System.nanoTime() - end < 0) {
      if (Thread.interrupted()) {
        throw new InterruptedException("waiting for the notices of signal " + signalId);
      }
      Iterable<ConsumerRecord<byte[], byte[]>> records;
      try {
        records = consumer.poll(POLL);
      } catch (InterruptException e) {
        throw new InterruptedException("waiting for the notices of signal " + signalId);
      }
      for (ConsumerRecord<byte[], byte[]> r : records) {
        Optional<Notice> notice = parse(r.value());
        if (notice.isEmpty() || !signalId.equals(notice.get().id())) {
          continue;
        }
        sink.accept(notice.get());
        String type = notice.get().type();
        if (CaptureNotices.COMPLETED.equals(type) || CaptureNotices.ABORTED.equals(type)) {
          return notice;
        }
      }
    }
    return Optional.empty();
  }

  /** An incremental snapshot notice, or empty for any other record. */
  static Optional<Notice> parse(byte[] value) {
    if (value == null) {
      return Optional.empty();
    }
    JsonNode node;
    try {
      node = JSON.readTree(value);
    } catch (IOException e) {
      return Optional.empty(); // not a notice of Debezium's; nothing of ours
    }
    if (!CaptureNotices.INCREMENTAL_SNAPSHOT.equals(
        node.path(CaptureNotices.AGGREGATE_TYPE).asText())) {
      return Optional.empty();
    }
    Map<String, String> data = new java.util.TreeMap<>();
    node.path(CaptureNotices.ADDITIONAL_DATA)
        .fields()
        .forEachRemaining(e -> data.put(e.getKey(), e.getValue().asText()));
    return Optional.of(
        new Notice(
            node.path(CaptureNotices.ID).asText(), node.path(CaptureNotices.TYPE).asText(), data));
  }

  @Override
  public void close() {
    consumer.close();
  }
}
