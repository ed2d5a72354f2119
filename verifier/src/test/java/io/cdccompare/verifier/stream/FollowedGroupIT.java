package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.note.Note;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a verify-only CLOSE marker reads from a real broker: the followed consumer group's committed
 * offsets ({@link AdminFollowedGroup}), the wait on them ({@link FollowWait}), and the keys after
 * the marker ({@link KafkaTopicReader#keysBetween}, {@link KafkaTopicReader#endOffset}).
 */
@WithEmbedded(Component.KAFKA)
class FollowedGroupIT {
  private static String topic;
  private static String bootstrap;
  private static VerifierSettings settings;

  @BeforeAll
  static void aTableTopicWithChangesAndAMarker(EmbeddedEnvironment env) throws Exception {
    topic = "follow-" + UUID.randomUUID();
    bootstrap = env.kafka().bootstrapServers();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    // partition 0: keys k0 .. k3 at offsets 0 .. 3, a marker at 4, keys k5 .. k7 at 5 .. 7
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (int i = 0; i < 8; i++) {
        RecordHeaders headers = new RecordHeaders();
        byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
        if (i == 4) {
          headers.add(Note.MARKER_HEADER, "CLOSE".getBytes(StandardCharsets.UTF_8));
          key = null;
        }
        producer.send(new ProducerRecord<>(topic, 0, key, new byte[] {0, 1}, headers)).get();
      }
    }
    settings =
        VerifierSettings.builder("follow")
            .applicationId("verifier-" + UUID.randomUUID())
            .bootstrapServers(bootstrap)
            .registryUrl("http://unused:8081")
            .topicPrefix("unused")
            .table(TableName.parse("public.unused"))
            .target("jdbc:postgresql://unused/db", "u", "p")
            .verifyOnly("applier-" + UUID.randomUUID())
            .build();
  }

  @Test
  void aGroupThatDoesNotExistHasNoCommittedOffset() {
    try (FollowedGroup group = AdminFollowedGroup.supplier(settings).get()) {
      assertThat(group.groupId()).isEqualTo(settings.follow().group());
      assertThat(group.committedOffsets(topic)).isEmpty();
    }
  }

  @Test
  void theCommittedOffsetsOfTheGroupAreReadPerPartition() {
    // Given the applier's group committed offset 5 of partition 0, none of partition 1
    String groupId = "applier-" + UUID.randomUUID();
    commit(groupId, 5);
    try (FollowedGroup group = new AdminFollowedGroup(groupId, adminConfig())) {
      // When, Then
      assertThat(group.committedOffsets(topic)).containsExactly(Map.entry(0, 5L));
      assertThat(group.committedOffsets("another-topic")).isEmpty();

      // And a later commit is seen
      commit(groupId, 7);
      assertThat(group.committedOffsets(topic)).containsExactly(Map.entry(0, 7L));
    }
  }

  @Test
  void aCloseWaitsUntilTheGroupCommitsPastTheMarker() throws Exception {
    // Given the applier at offset 4: the marker at 4 is not consumed yet
    String groupId = "applier-" + UUID.randomUUID();
    commit(groupId, 4);
    try (FollowWait wait =
        new FollowWait(
            new AdminFollowedGroup(groupId, adminConfig()),
            new FollowedOffsets(),
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            Ticker.system())) {
      // When a CLOSE at offset 4 waits
      CompletableFuture<FollowWait.Outcome> outcome =
          CompletableFuture.supplyAsync(() -> wait.awaitPast(topic, 0, 4, Duration.ZERO));

      // Then it waits while the group stands at 4 ...
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !outcome.isDone());

      // ... and passes once the group commits 6
      commit(groupId, 6);
      assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(new FollowWait.Outcome.Passed(6));
    }
  }

  @Test
  void theKeysBetweenTwoOffsetsSkipTheMarkers() {
    try (KafkaTopicReader reader = new KafkaTopicReader(KafkaTopicReader.clientConfig(settings))) {
      // When the keys of offsets 3 to 6 are read (the marker is at 4)
      Optional<Set<String>> keys = reader.keysBetween(topic, 0, 3, 7, Duration.ofSeconds(10));

      // Then
      assertThat(keys).hasValueSatisfying(k -> assertThat(k).containsExactly("k3", "k5", "k6"));
      assertThat(reader.keysBetween(topic, 0, 5, 5, Duration.ofSeconds(10))).contains(Set.of());
      assertThat(reader.endOffset(topic, 0)).isEqualTo(8);
      assertThat(reader.endOffset(topic, 1)).isZero();
    }
  }

  private static Map<String, Object> adminConfig() {
    return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
  }

  /** Commits {@code offset} of partition 0 for {@code groupId}, as an applier does. */
  private static void commit(String groupId, long offset) {
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, groupId,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(offset)));
    }
  }
}
