package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/**
 * A record of a table topic that is no change (raw bytes {@code not json}) stops its partition with
 * an error naming topic, partition and offset; nothing after it in that partition is applied, and
 * the table is reported UNVERIFIABLE on the alerts topic.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class PoisonRecordIT {
  private static final TableName ITEMS = new TableName("public", "items");
  private static final KeyCodec KEYS = new KeyCodec(List.of(LogicalType.INTEGER));

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void poisonRecordStopsItsPartitionNamingItAndReportsTheTableUnverifiable(EmbeddedEnvironment env)
      throws Exception {
    // Given a verifier that applied 300 inserted rows
    CaptureFixture source = new CaptureFixture(env);
    source.sql("CREATE TABLE items (id int PRIMARY KEY, name text)");
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("poison_" + source.prefix);
    try (Connection c = target.connect(database);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE items (id int PRIMARY KEY, name text)");
    }
    String topic = TableTopics.topicName(source.prefix, ITEMS);
    VerifierSettings settings =
        VerifierSettings.builder("poisoned")
            .applicationId("verify-" + source.prefix)
            .bootstrapServers(env.kafka().bootstrapServers())
            .registryUrl(env.registry().confluentApiUrl())
            .topicPrefix(source.prefix)
            .table(ITEMS)
            .target(target.jdbcUrl(database), target.user(), target.password())
            .applyBatchSize(50)
            .applyMaxDelay(Duration.ofMillis(100))
            .streamsProperty("commit.interval.ms", "200")
            .alertsTopic("ops-alerts-" + source.prefix) // a topic of the user's own naming
            .build();
    try (CaptureFixture.Running capture = source.start("public.items");
        VerifierApp app =
            VerifierApp.start(settings, CommitAudit.of(settings, target, database, ITEMS))) {
      source.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 300) g");
      await("300 rows applied")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                app.requireHealthy();
                assertThat(count(target, database, "SELECT count(*) FROM items")).isEqualTo(300);
                assertThat(checkpoint(settings, target, database, topic, 0))
                    .isEqualTo(endOffset(env, topic, 0) - 1);
              });

      // When a record that is no change lands in partition 0, followed by more changes
      long poison;
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
              new ByteArraySerializer(),
              new ByteArraySerializer())) {
        poison =
            producer
                .send(
                    new ProducerRecord<>(
                        topic,
                        0,
                        "poison".getBytes(StandardCharsets.UTF_8),
                        "not json".getBytes(StandardCharsets.UTF_8)))
                .get()
                .offset();
      }
      source.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(301, 600) g");

      // Then the verifier stops with an error naming the topic, partition and offset
      await("the verifier stops at the poison record")
          .atMost(Duration.ofSeconds(60))
          .until(() -> app.failure.get() != null);
      assertThat(app.failure.get())
          .hasStackTraceContaining(
              "UNVERIFIABLE: poison record at topic "
                  + topic
                  + ", partition 0, offset "
                  + poison
                  + ": ");
      await("the verifier is stopped")
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  app.streams.state() == KafkaStreams.State.ERROR
                      || app.streams.state() == KafkaStreams.State.PENDING_ERROR
                      || app.streams.state() == KafkaStreams.State.NOT_RUNNING);

      // And partition 0 was applied up to the record before it, and nothing after it
      assertThat(checkpoint(settings, target, database, topic, 0)).isEqualTo(poison - 1);
      Set<Integer> after = keysAfter(env, topic, poison);
      assertThat(after).as("changes behind the poison record in partition 0").isNotEmpty();
      assertThat(ids(target, database)).doesNotContainAnyElementsOf(after);

      // And the table is reported unverifiable on this target, naming the record
      Alert alert = firstAlert(env, "ops-alerts-" + source.prefix);
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getTarget()).isEqualTo("poisoned");
      assertThat(alert.getOrigin()).isEqualTo("poisoned");
      assertThat(alert.getTable()).isEqualTo("public.items");
      assertThat(alert.getTopic()).isEqualTo(topic);
      assertThat(alert.getPartition()).isZero();
      assertThat(alert.getOffset()).isEqualTo(poison);
      assertThat(alert.getMessage())
          .contains("public.items is unverifiable on target poisoned")
          .contains("poison record at topic " + topic + ", partition 0, offset " + poison);
    }
  }

  /** The ids of the changes in partition 0 after the poison record (the capture's keys). */
  static Set<Integer> keysAfter(EmbeddedEnvironment env, String topic, long poison) {
    TopicPartition p0 = new TopicPartition(topic, 0);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.assign(List.of(p0));
      consumer.seek(p0, poison + 1);
      long end = consumer.endOffsets(List.of(p0)).get(p0);
      Set<Integer> ids = new HashSet<>();
      await("partition 0 read to its end")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                  if (r.key() != null && r.value() != null) {
                    String key = new String(r.key(), StandardCharsets.UTF_8);
                    ids.add(((Number) KEYS.decode(key).get(0)).intValue());
                  }
                }
                return consumer.position(p0) >= end;
              });
      return ids;
    }
  }

  /** The first alert on {@code topic}. */
  static Alert firstAlert(EmbeddedEnvironment env, String topic) {
    return firstAlert(env, topic, alert -> true);
  }

  /** The first alert on {@code topic} that {@code wanted} accepts. */
  static Alert firstAlert(EmbeddedEnvironment env, String topic, Predicate<Alert> wanted) {
    SpecificAvroDeserializer<Alert> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            env.registry().confluentApiUrl(),
            SpecificAvroDeserializer.VALUE_TYPE,
            Alert.class.getName()),
        false);
    try (KafkaConsumer<String, Alert> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "alerts-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                "500"),
            new StringDeserializer(),
            values)) {
      consumer.subscribe(List.of(topic));
      AtomicReference<Alert> found = new AtomicReference<>();
      await("an alert on " + topic)
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> {
                for (ConsumerRecord<String, Alert> r : consumer.poll(Duration.ofMillis(200))) {
                  if (found.get() == null && wanted.test(r.value())) {
                    found.set(r.value());
                  }
                }
                return found.get() != null;
              });
      return found.get();
    }
  }

  private static long endOffset(EmbeddedEnvironment env, String topic, int partition) {
    TopicPartition tp = new TopicPartition(topic, partition);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      return consumer.endOffsets(List.of(tp)).get(tp);
    }
  }

  private static long checkpoint(
      VerifierSettings settings, JdbcServer target, String database, String topic, int partition)
      throws SQLException {
    try (Connection c = target.connect(database)) {
      return new CheckpointStore(c, new PostgresDialect(), null)
          .find(settings.applicationId(), topic, partition)
          .map(Checkpoint::offset)
          .orElse(-1L);
    }
  }

  private static long count(JdbcServer target, String database, String sql) throws SQLException {
    try (Connection c = target.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Set<Integer> ids(JdbcServer target, String database) throws SQLException {
    Set<Integer> ids = new HashSet<>();
    try (Connection c = target.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM items")) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }
}
