package io.cdccompare.topology.verify;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@link TopicReader} over a {@link KafkaConsumer} of its own, created at first use: no group, no
 * offset commits, {@code read_committed}; it assigns the one partition it reads and seeks. Own
 * client settings come from the verifier's {@code consumer.}-prefixed streams properties (security
 * settings and the like).
 */
final class KafkaTopicReader implements TopicReader {
  private final Map<String, Object> config;
  private KafkaConsumer<byte[], byte[]> consumer;

  KafkaTopicReader(Map<String, Object> config) {
    this.config = Map.copyOf(config);
  }

  /** One reader per processor, configured from the settings. */
  static Supplier<TopicReader> supplier(VerifierSettings settings) {
    Map<String, Object> config = new HashMap<>();
    settings
        .streamsProperties()
        .forEach(
            (key, value) -> {
              if (key.startsWith("consumer.")) {
                config.put(key.substring("consumer.".length()), value);
              } else if (key.startsWith("security.")
                  || key.startsWith("sasl.")
                  || key.startsWith("ssl.")) {
                config.put(key, value);
              }
            });
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.applicationId() + "-hashes");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return () -> new KafkaTopicReader(config);
  }

  @Override
  public Optional<ConsumerRecord<byte[], byte[]>> firstFrom(
      String topic, int partition, long offset, Duration timeout) {
    TopicPartition tp = new TopicPartition(topic, partition);
    KafkaConsumer<byte[], byte[]> c = consumer();
    c.assign(List.of(tp));
    c.seek(tp, offset);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      for (ConsumerRecord<byte[], byte[]> record :
          c.poll(Duration.ofMillis(Math.max(1, Math.min(200, left / 1_000_000))))) {
        if (record.offset() >= offset) {
          return Optional.of(record);
        }
      }
      if (deadline - System.nanoTime() <= 0) {
        return Optional.empty();
      }
    }
  }

  @Override
  public long beginningOffset(String topic, int partition) {
    TopicPartition tp = new TopicPartition(topic, partition);
    return consumer().beginningOffsets(List.of(tp)).get(tp);
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      consumer = new KafkaConsumer<>(config);
    }
    return consumer;
  }

  @Override
  public void close() {
    if (consumer != null) {
      consumer.close();
      consumer = null;
    }
  }
}
