package io.cdccompare.systemtests.soak;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every record of the results topic, from its beginning, with the moment it arrived here: what a
 * user's consumer sees, duplicates included. Survives broker restarts (the consumer reconnects).
 */
final class ResultLog implements AutoCloseable {
  record Arrival(ChunkResult result, long arrivedMs) {}

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final SpecificAvroDeserializer<ChunkResult> results =
      new SpecificAvroDeserializer<>(ChunkResult.class);
  private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Thread poller;
  private volatile boolean closing;

  ResultLog(String bootstrapServers, String registryUrl, String topic) {
    results.configure(Map.of("schema.registry.url", registryUrl), false);
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "soak-watch-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                "false",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                100,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                2000),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    consumer.subscribe(List.of(topic));
    poller = new Thread(this::poll, "soak-results");
    poller.setDaemon(true);
    poller.start();
  }

  private void poll() {
    try {
      while (!closing) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          ChunkResult v = r.value() == null ? null : results.deserialize(r.topic(), r.value());
          if (v != null) {
            arrivals.add(new Arrival(v, System.currentTimeMillis()));
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      failure.set(e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  List<Arrival> arrivals() {
    if (failure.get() != null) {
      throw new IllegalStateException("the results reader failed", failure.get());
    }
    return arrivals;
  }

  @Override
  public void close() throws InterruptedException {
    closing = true;
    consumer.wakeup();
    poller.join(10_000);
  }
}
