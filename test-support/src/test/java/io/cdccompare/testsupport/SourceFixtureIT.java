package io.cdccompare.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class SourceFixtureIT {

  @Test
  void eachFixtureHasItsOwnDatabaseAndPrefix(EmbeddedEnvironment env) throws Exception {
    SourceFixture a = new SourceFixture(env, "fx");
    SourceFixture b = new SourceFixture(env, "fx");
    assertThat(a.prefix).startsWith("fx").isNotEqualTo(b.prefix);
    assertThat(a.database).isNotEqualTo(b.database);

    a.sql(
        "CREATE TABLE t (id int PRIMARY KEY, name text)",
        "INSERT INTO t VALUES (2, 'b'), (1, 'a')");
    b.sql("CREATE TABLE t (id int PRIMARY KEY, name text)");

    assertThat(a.rows("SELECT id, name FROM t ORDER BY id"))
        .containsExactly(new Object[] {1, "a"}, new Object[] {2, "b"});
    assertThat(b.rows("SELECT id, name FROM t")).isEmpty();
  }

  @Test
  void aTaskIsTheCaptureConfigurationWithoutItsCaptureOnlyKeys(EmbeddedEnvironment env) {
    SourceFixture f = new SourceFixture(env, "fx");
    Map<String, String> capture = f.captureConfig("public.t");
    Map<String, String> task = f.task("nightly", "public.t");

    assertThat(capture)
        .containsEntry("source.database", f.database)
        .containsEntry("topic.prefix", f.prefix)
        .containsEntry("tables", "public.t")
        .containsKey("topic.partitions");
    assertThat(task)
        .containsEntry("task.name", "nightly")
        .containsEntry("source.database", f.database)
        .doesNotContainKeys("topic.partitions", "poll.interval.ms", "heartbeat.interval.ms");
  }

  @Test
  void readsEveryPartitionOfATopicToItsEnd(EmbeddedEnvironment env) throws Exception {
    SourceFixture f = new SourceFixture(env, "fx");
    String topic = f.prefix + ".read";
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
    }
    Map<String, Object> props =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < 9; i++) {
        ProducerRecord<byte[], byte[]> r =
            new ProducerRecord<>(topic, i % 3, bytes("k" + i), bytes("v" + i));
        if (i == 4) {
          r.headers().add("cdc.marker", bytes("CLOSE"));
        }
        producer.send(r).get();
      }
    }

    List<ConsumerRecord<byte[], byte[]>> all = f.readAll(topic);

    assertThat(all).extracting(SourceFixture::key).hasSize(9).contains("k0", "k4", "k8");
    assertThat(SourceFixture.count(all, r -> "CLOSE".equals(SourceFixture.header(r, "cdc.marker"))))
        .isEqualTo(1);
    assertThat(f.read(topic, records -> records.size() >= 5)).hasSizeGreaterThanOrEqualTo(5);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
