package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.alerts.AlertForwarder;
import io.cdccompare.operations.alerts.AlertMessage;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code cdc-compare alerts}' forwarder against a real broker and registry and a local HTTP server
 * that fails, then recovers: every alert reaches the webhook once, in order, an alert the webhook
 * never took is never committed past, and a repeat is not sent twice.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY})
class AlertForwarderIT {
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final AtomicInteger failing = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private HttpServer server;

  @BeforeEach
  void aWebhook() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          int status = 200;
          if (failing.get() > 0) {
            failing.decrementAndGet();
            refused.incrementAndGet();
            status = 503;
          } else {
            received.add(new String(body, StandardCharsets.UTF_8));
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    thread.shutdownNow();
    server.stop(0);
  }

  @Test
  void everyAlertReachesTheWebhookOnceAndNoneIsCommittedPastBeforeItWasTaken(
      EmbeddedEnvironment env) throws Exception {
    // Given an alerts topic with two alerts, a repeat of the first, and a record that is no alert
    String topic = "alerts-" + UUID.randomUUID();
    String group = "hook-" + UUID.randomUUID();
    String bootstrap = env.kafka().bootstrapServers();
    String registry = env.registry().confluentApiUrl();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    send(env, topic, "t/b/public.items", alert(AlertCode.DIFFERENCES, "r1", "3 rows differ"));
    send(env, topic, "t/b/public.orders", alert(AlertCode.UNVERIFIABLE, "r1", "a lost hash"));
    send(env, topic, "t/b/public.items", alert(AlertCode.DIFFERENCES, "r1", "3 rows differ"));
    try (KafkaProducer<String, byte[]> garbage =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(),
            new ByteArraySerializer())) {
      garbage.send(new ProducerRecord<>(topic, "x", new byte[] {9, 9})).get();
    }

    // When the forwarder starts while the webhook refuses its first 3 requests
    failing.set(3);
    AlertForwarder first = forwarder(bootstrap, registry, topic, group, AlertMessage.SLACK);
    Future<Long> run = thread.submit(first::run);

    // Then after the refusals both alerts arrive, once each and in order, and the repeat and the
    // garbage are not sent; everything is committed
    await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == 2);
    assertThat(refused.get()).isEqualTo(3);
    assertThat(received.get(0))
        .contains("cdc-compare DIFFERENCES: task nightly, table public.items, target b, run r1")
        .contains("3 rows differ");
    assertThat(received.get(1)).contains("cdc-compare UNVERIFIABLE");
    await().atMost(Duration.ofSeconds(30)).until(() -> committed(bootstrap, group, topic) == 4);

    // When a third alert comes while the webhook is down, and the forwarder is stopped
    failing.set(Integer.MAX_VALUE);
    send(env, topic, "t/a/public.items", alert(AlertCode.STALLED, "r2", "group g stands still"));
    int before = refused.get();
    await().atMost(Duration.ofSeconds(30)).until(() -> refused.get() > before + 1);
    first.stop();
    assertThat(run.get()).isEqualTo(2);

    // Then it was not committed past, and a forwarder of the same group sends it once the
    // webhook is back
    assertThat(committed(bootstrap, group, topic)).isEqualTo(4);
    failing.set(0);
    AlertForwarder second = forwarder(bootstrap, registry, topic, group, AlertMessage.JSON);
    Future<Long> again = thread.submit(second::run);
    await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == 3);
    assertThat(received.get(2))
        .contains("\"code\":\"STALLED\"")
        .contains("\"message\":\"group g stands still\"");
    await().atMost(Duration.ofSeconds(30)).until(() -> committed(bootstrap, group, topic) == 5);
    second.stop();
    assertThat(again.get()).isEqualTo(1);
  }

  private AlertForwarder forwarder(
      String bootstrap, String registry, String topic, String group, AlertMessage format) {
    return new AlertForwarder(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            group),
        Map.of("schema.registry.url", registry),
        topic,
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook"),
        format,
        Duration.ofMillis(50),
        Duration.ofMillis(200));
  }

  private static long committed(String bootstrap, String group, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      OffsetAndMetadata offset =
          admin
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get()
              .get(new TopicPartition(topic, 0));
      return offset == null ? -1 : offset.offset();
    }
  }

  /** Writes {@code alert} under {@code key} to {@code topic}, as the verifiers do. */
  static void send(EmbeddedEnvironment env, String topic, String key, Alert alert)
      throws Exception {
    try (SpecificAvroSerializer<Alert> values = new SpecificAvroSerializer<>();
        KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
      values.configure(Map.of("schema.registry.url", env.registry().confluentApiUrl()), false);
      producer.send(new ProducerRecord<>(topic, key, values.serialize(topic, alert))).get();
    }
  }

  private static Alert alert(AlertCode code, String run, String message) {
    return Alert.newBuilder()
        .setCode(code)
        .setOrigin("b")
        .setTask("nightly")
        .setRunId(run)
        .setTable(code == AlertCode.UNVERIFIABLE ? "public.orders" : "public.items")
        .setTarget("b")
        .setMessage(message)
        .setRaisedAt(Instant.parse("2026-12-01T10:00:00Z"))
        .build();
  }
}
