package io.cdccompare.report.aggregate;

import static io.cdccompare.report.aggregate.ReportDriver.ORDERS;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_1;
import static io.cdccompare.report.aggregate.ReportDriver.TASK;
import static io.cdccompare.report.aggregate.ReportDriver.counts;
import static io.cdccompare.report.aggregate.ReportDriver.hashRecord;
import static io.cdccompare.report.aggregate.ReportDriver.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.report.ReportKey;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report application on a real broker and registry, exactly-once, from results to report. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY})
class ReportTopologyIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String PG = "pg-replica";
  private static final String MARIA = "maria-replica";

  @TempDir Path stateDir;

  @Test
  void resultsAndNotedChunksBecomeReportEntriesAndOneAlert(EmbeddedEnvironment env)
      throws Exception {
    // Given the app running on fresh topics
    ReportConfig config = newReport(env);
    try (KafkaStreams streams = start(env, config)) {

      // When two chunks are noted; one target compares both (two partitions each, a failed row
      // in the first, a replayed verdict), the other only half of the first
      produce(
          env,
          config.hashesTopic(),
          hashRecord(RUN_1, ORDERS, 1, 0, 0),
          hashRecord(RUN_1, ORDERS, 1, 1, 0),
          hashRecord(RUN_1, ORDERS, 2, 0, 0));
      produce(
          env,
          config.resultsTopic(),
          result(PG, RUN_1, ORDERS, 1, 0, 2)
              .setCounts(counts(4, 1, 0, 0, 0))
              .setFailedKeys(List.of("17"))
              .build(),
          result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(5, 0, 0, 0, 0)).build(),
          result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(5, 0, 0, 0, 0)).build(),
          result(PG, RUN_1, ORDERS, 2, 0, 2).setCounts(counts(5, 0, 0, 0, 0)).build(),
          result(PG, RUN_1, ORDERS, 2, 1, 2).setCounts(counts(5, 0, 0, 0, 0)).build(),
          result(MARIA, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(4, 0, 0, 0, 0)).build());

      // Then the compacted report converges to the totals of each target and of the task
      Map<String, ReportEntry> report = new HashMap<>();
      try (KafkaConsumer<String, ReportEntry> consumer = consumer(env, ReportEntry.class)) {
        consumer.subscribe(List.of(config.reportTopic()));
        await()
            .atMost(WAIT)
            .untilAsserted(
                () -> {
                  consumer
                      .poll(Duration.ofMillis(200))
                      .forEach(r -> report.put(r.key(), r.value()));
                  assertThat(report.get(ReportKey.ofTable(TASK, PG, ORDERS)))
                      .isNotNull()
                      .satisfies(e -> assertThat(e.getApplyChunks()).isEqualTo(2));
                  assertThat(report.get(ReportKey.ofTable(TASK, MARIA, ORDERS)))
                      .isNotNull()
                      .satisfies(e -> assertThat(e.getCaptureChunks()).isEqualTo(2));
                });
      }
      ReportEntry pg = report.get(ReportKey.ofTable(TASK, PG, ORDERS));
      assertThat(List.of(pg.getCaptureChunks(), pg.getApplyChunks())).containsExactly(2L, 2L);
      assertThat(pg.getCounts()).isEqualTo(counts(19, 1, 0, 0, 0));
      assertThat(pg.getStatus()).isEqualTo(ReportStatus.DIFFERENCES);
      ReportEntry maria = report.get(ReportKey.ofTable(TASK, MARIA, ORDERS));
      assertThat(maria.getApplyChunks()).isZero();
      assertThat(maria.getStatus()).isEqualTo(ReportStatus.IN_PROGRESS);
      assertThat(report.get(ReportKey.ofTask(TASK, PG)).getCounts()).isEqualTo(pg.getCounts());
      assertThat(report.get(ReportKey.ofTask(TASK, MARIA)).getStatus())
          .isEqualTo(ReportStatus.IN_PROGRESS);

      // And exactly one DIFFERENCES alert was committed
      List<Alert> alerts = readAll(env, config.alertsTopic(), Alert.class);
      assertThat(alerts)
          .singleElement()
          .satisfies(
              alert -> {
                assertThat(alert.getCode()).isEqualTo(AlertCode.DIFFERENCES);
                assertThat(alert.getTarget()).isEqualTo(PG);
                assertThat(alert.getSampleKeys()).containsExactly("17");
              });

      // And the internal topics have the names the factory gave them
      try (Admin admin = admin(env)) {
        assertThat(admin.listTopics().names().get())
            .contains(
                config.applicationId() + "-report-inputs-by-task-repartition",
                config.applicationId() + "-report-target-runs-changelog",
                config.applicationId() + "-report-chunk-assemblies-changelog");
      }
      assertThat(streams.state().isRunningOrRebalancing()).as("app alive").isTrue();
    }
  }

  @Test
  void aRestartedAppRestoresItsStateFromTheChangelogsAndStillIgnoresReplays(EmbeddedEnvironment env)
      throws Exception {
    // Given chunk 1 (two partitions) counted by a first instance, whose local state is then wiped
    ReportConfig config = newReport(env);
    ChunkResult secondHalf =
        result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(3, 0, 0, 0, 0)).build();
    try (KafkaStreams streams = start(env, config)) {
      produce(
          env,
          config.resultsTopic(),
          result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(4, 0, 0, 0, 0)).build(),
          secondHalf);
      readReportUntil(
          env,
          config,
          latest ->
              assertThat(latest.get(ReportKey.ofTable(TASK, PG, ORDERS)))
                  .isNotNull()
                  .satisfies(e -> assertThat(e.getApplyChunks()).isEqualTo(1)));
      streams.close(
          CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
              .withTimeout(WAIT));
      assertThat(storeFiles(config)).isNotEmpty();
      streams.cleanUp();
    }
    assertThat(storeFiles(config)).isEmpty();

    // When a second instance starts, one half of chunk 1 is replayed, then chunk 2 arrives
    try (KafkaStreams streams = start(env, config)) {
      produce(
          env,
          config.resultsTopic(),
          secondHalf,
          result(PG, RUN_1, ORDERS, 2, 0, 2).setCounts(counts(2, 0, 0, 0, 0)).build(),
          result(PG, RUN_1, ORDERS, 2, 1, 2).setCounts(counts(1, 0, 0, 0, 0)).build());

      // Then chunk 1 counted once and chunk 2 on top of it: totals and the partitions seen came
      // back from the changelogs (without them the replayed half would wait for its other half,
      // and only chunk 2 would count)
      Map<String, ReportEntry> report =
          readReportUntil(
              env,
              config,
              latest ->
                  assertThat(latest.get(ReportKey.ofTable(TASK, PG, ORDERS)))
                      .isNotNull()
                      .satisfies(e -> assertThat(e.getApplyChunks()).isEqualTo(2)));
      assertThat(report.get(ReportKey.ofTable(TASK, PG, ORDERS)).getCounts())
          .isEqualTo(counts(10, 0, 0, 0, 0));
      assertThat(streams.state().isRunningOrRebalancing()).as("app alive").isTrue();
    }
  }

  /** The RocksDB files of the app's local stores. */
  private List<Path> storeFiles(ReportConfig config) throws IOException {
    Path appDir = stateDir.resolve(config.applicationId());
    if (!Files.exists(appDir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(appDir)) {
      return files.filter(f -> f.toString().contains("rocksdb")).toList();
    }
  }

  /** A report on fresh topics of its own. */
  private static ReportConfig newReport(EmbeddedEnvironment env) throws Exception {
    String prefix = "rep" + Long.toString(System.nanoTime(), 36);
    ReportConfig config = ReportConfig.of(prefix, env.registry().confluentApiUrl());
    createTopics(env, config);
    return config;
  }

  private KafkaStreams start(EmbeddedEnvironment env, ReportConfig config) {
    Properties props = config.streamsProperties(env.kafka().bootstrapServers());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    KafkaStreams streams = new KafkaStreams(ReportTopologyFactory.build(config), props);
    streams.start();
    return streams;
  }

  /**
   * Reads the committed report from the beginning, keeping the latest entry per key, until {@code
   * converged} holds of it.
   */
  private static Map<String, ReportEntry> readReportUntil(
      EmbeddedEnvironment env, ReportConfig config, Consumer<Map<String, ReportEntry>> converged) {
    Map<String, ReportEntry> latest = new HashMap<>();
    try (KafkaConsumer<String, ReportEntry> consumer = consumer(env, ReportEntry.class)) {
      consumer.subscribe(List.of(config.reportTopic()));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> latest.put(r.key(), r.value()));
                converged.accept(latest);
              });
    }
    return latest;
  }

  private static void createTopics(EmbeddedEnvironment env, ReportConfig config) throws Exception {
    Map<String, String> compacted =
        Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    try (Admin admin = admin(env)) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(config.resultsTopic(), 3, (short) 1),
                  new NewTopic(config.hashesTopic(), 2, (short) 1).configs(compacted),
                  new NewTopic(config.reportTopic(), 1, (short) 1).configs(compacted),
                  new NewTopic(config.alertsTopic(), 1, (short) 1)))
          .all()
          .get();
    }
  }

  /** Sends the records with string keys and waits for the broker's acknowledgement. */
  private static void produce(EmbeddedEnvironment env, String topic, SpecificRecord... records)
      throws Exception {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers());
    props.put("schema.registry.url", env.registry().confluentApiUrl());
    try (SpecificAvroSerializer<SpecificRecord> values = new SpecificAvroSerializer<>()) {
      values.configure(props, false);
      try (KafkaProducer<String, SpecificRecord> producer =
          new KafkaProducer<>(props, new StringSerializer(), values)) {
        for (SpecificRecord record : records) {
          producer.send(new ProducerRecord<>(topic, key(record), record)).get();
        }
      }
    }
  }

  private static String key(SpecificRecord record) {
    if (record instanceof ChunkResult r) {
      return String.join("/", r.getTask(), r.getRunId(), r.getTable(), r.getTarget());
    }
    HashRecord h = (HashRecord) record;
    return String.join(
        "/",
        h.getTask(),
        h.getRunId(),
        h.getTable(),
        Long.toString(h.getChunk()),
        Integer.toString(h.getTablePartition()),
        Integer.toString(h.getPart()));
  }

  private static <T extends SpecificRecord> KafkaConsumer<String, T> consumer(
      EmbeddedEnvironment env, Class<T> type) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "report-it-" + System.nanoTime());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put("schema.registry.url", env.registry().confluentApiUrl());
    props.put(SpecificAvroDeserializer.VALUE_TYPE, type.getName());
    SpecificAvroDeserializer<T> values = new SpecificAvroDeserializer<>();
    values.configure(props, false);
    return new KafkaConsumer<>(props, new StringDeserializer(), values);
  }

  /** Every committed record of the topic, read up to its last stable offset. */
  private static <T extends SpecificRecord> List<T> readAll(
      EmbeddedEnvironment env, String topic, Class<T> type) {
    List<T> values = new ArrayList<>();
    try (KafkaConsumer<String, T> consumer = consumer(env, type)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      await()
          .atMost(WAIT)
          .until(
              () -> {
                for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                  values.add(r.value());
                }
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
              });
    }
    return values;
  }

  private static Admin admin(EmbeddedEnvironment env) {
    return Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()));
  }
}
