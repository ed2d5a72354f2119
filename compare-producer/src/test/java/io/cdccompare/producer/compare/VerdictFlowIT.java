package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flow control on a real broker and registry: the chunk results are written as a verifier writes
 * them (Avro through the registry, one per target and partition) to a fresh results topic.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY})
class VerdictFlowIT {
  private static final String RUN = "20261201T000000Z-abcdef";
  private static final String TABLE = "public.items";
  private static final Duration LONG_STALL = Duration.ofSeconds(60);

  private String topic;
  private String bootstrap;
  private String registry;
  private KafkaProducer<String, ChunkResult> results;

  @BeforeEach
  void freshResultsTopic(EmbeddedEnvironment env) throws Exception {
    topic = "flow-" + UUID.randomUUID() + ".compare.results";
    bootstrap = env.kafka().bootstrapServers();
    registry = env.registry().confluentApiUrl();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    SpecificAvroSerializer<ChunkResult> values = new SpecificAvroSerializer<>();
    values.configure(Map.of("schema.registry.url", registry), false);
    results =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(),
            values);
  }

  @AfterEach
  void closeProducer() {
    results.close();
  }

  private VerdictFlow flow(List<String> targets, Duration stall, String resultsTopic) {
    return new VerdictFlow(
        "orders-check",
        targets,
        2,
        stall,
        resultsTopic,
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        Map.of("schema.registry.url", registry));
  }

  /** The verdict of one chunk in one partition of a 3-partition table topic. */
  private void publish(String task, String runId, long chunk, String target, int partition)
      throws Exception {
    ChunkResult result =
        ChunkResult.newBuilder()
            .setTask(task)
            .setRunId(runId)
            .setTaskKind(TaskKind.FULL)
            .setTable(TABLE)
            .setTopic("shop.public.items")
            .setChunk(chunk)
            .setTarget(target)
            .setTablePartition(partition)
            .setPartitionCount(3)
            .setMarkerOffset(100 + chunk)
            .setState(ChunkState.VERIFIED)
            .setCounts(new RowCounts(10L, 0L, 0L, 0L, 0L))
            .setVerifiedAt(Instant.now())
            .build();
    results.send(new ProducerRecord<>(topic, target + "/" + chunk, result)).get();
  }

  private static CompletableFuture<Void> awaitInBackground(
      VerdictFlow flow, long chunk, AtomicBoolean stopping) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            flow.awaitVerified(RUN, TABLE, chunk, stopping::get);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void aChunkIsVerifiedWhenEveryTargetPublishedEveryPartitionOfIt() throws Exception {
    // Given a run waiting for chunk 4 of targets a and b
    try (VerdictFlow flow = flow(List.of("a", "b"), LONG_STALL, topic)) {
      CompletableFuture<Void> waiting = awaitInBackground(flow, 4, new AtomicBoolean());

      // When a publishes all three partitions, b two of them, and verdicts of another task, of
      // another run and of another chunk arrive
      for (int p = 0; p < 3; p++) {
        publish("orders-check", RUN, 4, "a", p);
      }
      publish("orders-check", RUN, 4, "b", 0);
      publish("orders-check", RUN, 4, "b", 1);
      publish("other-task", RUN, 4, "b", 2);
      publish("orders-check", "20261130T000000Z-000000", 4, "b", 2);
      publish("orders-check", RUN, 3, "b", 2);

      // Then the run still waits, for as long as we look
      await("chunk 4 still waited for")
          .during(Duration.ofMillis(1_500))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !waiting.isDone());

      // When b publishes the last partition of chunk 4
      publish("orders-check", RUN, 4, "b", 2);

      // Then the wait ends
      waiting.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aTargetSilentForTheStallTimeoutIsNoLongerWaitedFor() throws Exception {
    // Given a run waiting for chunk 0 of targets a and b, with a stall timeout of 2 s
    try (VerdictFlow flow = flow(List.of("a", "b"), Duration.ofSeconds(2), topic)) {
      long start = System.nanoTime();
      CompletableFuture<Void> waiting = awaitInBackground(flow, 0, new AtomicBoolean());

      // When only a publishes chunk 0
      for (int p = 0; p < 3; p++) {
        publish("orders-check", RUN, 0, "a", p);
      }

      // Then the run goes on once b was silent for the stall timeout, and not before
      waiting.get(15, TimeUnit.SECONDS);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(2));

      // and b is not waited for again: a's verdicts of chunk 1 are enough
      CompletableFuture<Void> next = awaitInBackground(flow, 1, new AtomicBoolean());
      for (int p = 0; p < 3; p++) {
        publish("orders-check", RUN, 1, "a", p);
      }
      next.get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aStoppingRunStopsWaiting() throws Exception {
    // Given a run waiting for a chunk no target publishes
    try (VerdictFlow flow = flow(List.of("a"), LONG_STALL, topic)) {
      AtomicBoolean stopping = new AtomicBoolean();
      CompletableFuture<Void> waiting = awaitInBackground(flow, 7, stopping);
      await("chunk 7 waited for")
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !waiting.isDone());

      // When the run is asked to stop
      stopping.set(true);

      // Then the wait ends
      waiting.get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void withoutAResultsTopicNothingIsWaitedFor() throws Exception {
    // Given no results topic (no verifier ever ran)
    try (VerdictFlow flow = flow(List.of("a"), LONG_STALL, "missing-" + topic)) {
      // When a chunk is waited for / Then the wait returns at once
      awaitInBackground(flow, 5, new AtomicBoolean()).get(5, TimeUnit.SECONDS);
    }
  }
}
