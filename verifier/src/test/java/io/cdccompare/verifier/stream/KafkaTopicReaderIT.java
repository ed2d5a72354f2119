package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hash record reader on a real broker: answers are the records at the asked offsets, whatever
 * the order of the partitions asked, and records a fetch brought ahead are served from memory.
 */
@WithEmbedded(Component.KAFKA)
class KafkaTopicReaderIT {
  private static final int RECORDS = 40;
  private static final int VALUE_BYTES = 20_000;
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static String topic;
  private static VerifierSettings settings;

  @BeforeAll
  static void twoPartitionsOfFortyRecords(EmbeddedEnvironment env) throws Exception {
    topic = "reader-" + UUID.randomUUID();
    String bootstrap = env.kafka().bootstrapServers();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (int i = 0; i < RECORDS; i++) {
        for (int partition = 0; partition < 2; partition++) {
          producer.send(new ProducerRecord<>(topic, partition, null, value(partition, i))).get();
        }
      }
    }
    settings =
        VerifierSettings.builder("reader")
            .applicationId("reader-" + UUID.randomUUID())
            .bootstrapServers(bootstrap)
            .registryUrl("http://unused:8081")
            .topicPrefix("unused")
            .table(TableName.parse("public.unused"))
            .target("jdbc:postgresql://unused/db", "u", "p")
            .build();
  }

  /** Record {@code i} of a partition: 20 000 bytes that name both. */
  private static byte[] value(int partition, int i) {
    byte[] value = new byte[VALUE_BYTES];
    Arrays.fill(value, (byte) (partition * 100 + i));
    ByteBuffer.wrap(value).putInt(partition).putInt(i);
    return value;
  }

  @Test
  void readsInOffsetOrderAcrossPartitionsAreAnsweredFromWhatAFetchBroughtAhead() {
    // Given a reader
    try (KafkaTopicReader reader = new KafkaTopicReader(KafkaTopicReader.clientConfig(settings))) {
      // When every record is asked for in offset order, the two partitions taking turns (as the
      // CLOSE markers of a chunk's partitions ask for their hash records)
      for (int i = 0; i < RECORDS; i++) {
        for (int partition = 0; partition < 2; partition++) {
          // Then each answer is the record at that offset
          ConsumerRecord<byte[], byte[]> found = reader.firstFrom(topic, partition, i, WAIT).get();
          assertThat(found.offset()).isEqualTo(i);
          assertThat(found.value()).isEqualTo(value(partition, i));
        }
      }
      // and a 256 KiB fetch brings about 12 records of 20 000 bytes: far fewer fetches than the
      // 80 a seek per request needs
      assertThat(reader.fetchRequests()).isLessThan(30);
    }
  }

  @Test
  void anOffsetBeforeOrFarAfterWhatWasReadSeeksAndAnOffsetPastTheEndFindsNothing() {
    try (KafkaTopicReader reader = new KafkaTopicReader(KafkaTopicReader.clientConfig(settings))) {
      // Given a reader that read the end of partition 1
      assertThat(reader.firstFrom(topic, 1, 30, WAIT).map(ConsumerRecord::offset)).hasValue(30L);

      // When an earlier offset, a later one and one past the end are asked for
      Optional<ConsumerRecord<byte[], byte[]>> earlier = reader.firstFrom(topic, 1, 3, WAIT);
      Optional<ConsumerRecord<byte[], byte[]>> later = reader.firstFrom(topic, 1, 39, WAIT);
      Optional<ConsumerRecord<byte[], byte[]>> pastEnd =
          reader.firstFrom(topic, 1, RECORDS, Duration.ofMillis(500));

      // Then the first two are found with their values, the last is not there
      assertThat(earlier).get().satisfies(r -> assertThat(r.value()).isEqualTo(value(1, 3)));
      assertThat(later).get().satisfies(r -> assertThat(r.value()).isEqualTo(value(1, 39)));
      assertThat(pastEnd).isEmpty();
    }
  }

  @Test
  void anOffsetBetweenTheFirstReadAndALaterReadIsReadAgainNotAnsweredWithALaterRecord() {
    try (KafkaTopicReader reader = new KafkaTopicReader(KafkaTopicReader.clientConfig(settings))) {
      // Given a reader that read offset 20 of partition 0, then 25 from what that fetch brought
      assertThat(reader.firstFrom(topic, 0, 20, WAIT).map(ConsumerRecord::offset)).hasValue(20L);
      assertThat(reader.firstFrom(topic, 0, 25, WAIT).map(ConsumerRecord::offset)).hasValue(25L);

      // When offset 22 is asked for (a CLOSE marker of another table processed later)
      Optional<ConsumerRecord<byte[], byte[]>> between = reader.firstFrom(topic, 0, 22, WAIT);

      // Then it is record 22, not the next record kept (25): that was "the hash record is gone"
      assertThat(between).get().satisfies(r -> assertThat(r.offset()).isEqualTo(22L));
      assertThat(between.get().value()).isEqualTo(value(0, 22));
    }
  }
}
