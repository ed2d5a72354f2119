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
 *
 * <p>Its reads are random access, one hash record per chunk and partition, so it waits at most
 * {@value #FETCH_MAX_WAIT_MS} ms for a fetch ({@code fetch.max.wait.ms}, unless the settings say
 * otherwise): a consumer sends the next fetch of a partition as soon as a poll returns, the broker
 * holds that fetch on the idle hashes partition for {@code fetch.max.wait.ms} (500 ms by default),
 * and the next chunk's seek waited for it. Measured with bench's {@code EndToEndThroughput} at 200
 * 000 rows: 596 → 207 ms per chunk on a PostgreSQL target.
 */
final class KafkaTopicReader implements TopicReader {
  /** The longest the broker holds a fetch of this reader, unless the settings say otherwise. */
  static final int FETCH_MAX_WAIT_MS = 10;

  private final Map<String, Object> config;
  private KafkaConsumer<byte[], byte[]> consumer;

  KafkaTopicReader(Map<String, Object> config) {
    this.config = Map.copyOf(config);
  }

  /** One reader per processor, configured from the settings. */
  static Supplier<TopicReader> supplier(VerifierSettings settings) {
    Map<String, Object> config = clientConfig(settings);
    return () -> new KafkaTopicReader(config);
  }

  /** The reader's consumer configuration for these settings. */
  static Map<String, Object> clientConfig(VerifierSettings settings) {
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
    config.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.applicationId() + "-hashes");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
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
