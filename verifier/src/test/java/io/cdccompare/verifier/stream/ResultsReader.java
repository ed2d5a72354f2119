package io.cdccompare.verifier.stream;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads the results topic from its beginning, keeping every chunk result read so far. */
final class ResultsReader implements AutoCloseable {
  private final KafkaConsumer<String, ChunkResult> consumer;
  private final List<ConsumerRecord<String, ChunkResult>> records = new ArrayList<>();

  ResultsReader(String bootstrapServers, String registryUrl, String topic) {
    SpecificAvroDeserializer<ChunkResult> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            registryUrl,
            SpecificAvroDeserializer.VALUE_TYPE,
            ChunkResult.class.getName()),
        false);
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "results-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                "500"),
            new StringDeserializer(),
            values);
    consumer.subscribe(List.of(topic));
  }

  /** A reader of the results topic of these settings, on the embedded broker and registry. */
  static ResultsReader of(
      io.cdccompare.embedded.EmbeddedEnvironment env, VerifierSettings settings) {
    return new ResultsReader(
        env.kafka().bootstrapServers(),
        env.registry().confluentApiUrl(),
        settings.tables().resultsTopic());
  }

  /** Polls once and returns every result of the run read so far. */
  List<ConsumerRecord<String, ChunkResult>> ofRun(String runId) {
    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
    return records.stream().filter(r -> r.value().getRunId().equals(runId)).toList();
  }

  @Override
  public void close() {
    consumer.close();
  }
}
