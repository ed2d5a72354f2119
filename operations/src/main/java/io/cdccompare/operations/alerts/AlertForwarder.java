package io.cdccompare.operations.alerts;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the alerts topic with a consumer group of its own and POSTs each alert to a webhook, at
 * least once, in the topic's order per partition:
 *
 * <ul>
 *   <li>an alert is sent until the webhook answers 2xx: a refusal, an error status or no answer is
 *       retried with a backoff that doubles from {@code retryFirst} up to {@code retryMax}, for as
 *       long as it takes; only then is the offset after it committed, so an alert the webhook never
 *       took is never committed past, and a restart sends it again;
 *   <li>no flood: an alert with the same record key, code and run as one already sent (a replay
 *       after a restart of its producer, a re-emitted verdict) is not sent again; the last {@value
 *       #REMEMBERED} such identities are remembered in memory, so after a restart of the forwarder
 *       itself one may come twice (at least once).
 * </ul>
 *
 * A record that is no alert (not readable as one) is logged with its topic, partition and offset
 * and skipped: nothing could ever send it. {@link #stop()} from any thread ends {@link #run()}.
 */
public final class AlertForwarder {
  private static final Logger LOG = LoggerFactory.getLogger(AlertForwarder.class);

  /** Identities of sent alerts kept to suppress repeats. */
  static final int REMEMBERED = 10_000;

  private final Map<String, Object> consumerConfig;
  private final Map<String, Object> serdeConfig;
  private final String topic;
  private final URI webhook;
  private final AlertMessage format;
  private final Duration retryFirst;
  private final Duration retryMax;
  private final HttpClient http;
  private final Map<String, Boolean> sent =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > REMEMBERED;
        }
      };
  private volatile boolean stopping;
  private volatile KafkaConsumer<String, byte[]> consumer;
  private final Object pause = new Object();
  private long delivered;

  /**
   * @param consumerConfig consumer settings: {@code bootstrap.servers} and {@code group.id} at
   *     least
   * @param serdeConfig the schema registry settings of the Avro deserializer
   */
  public AlertForwarder(
      Map<String, Object> consumerConfig,
      Map<String, Object> serdeConfig,
      String topic,
      URI webhook,
      AlertMessage format,
      Duration retryFirst,
      Duration retryMax) {
    this.consumerConfig = new LinkedHashMap<>(consumerConfig);
    this.consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumerConfig.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    this.consumerConfig.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    this.consumerConfig.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
    this.serdeConfig = Map.copyOf(serdeConfig);
    this.topic = topic;
    this.webhook = webhook;
    this.format = format;
    this.retryFirst = retryFirst;
    this.retryMax = retryMax;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** Forwards until {@link #stop()}; returns the number of alerts the webhook took. */
  public long run() throws InterruptedException {
    try (SpecificAvroDeserializer<Alert> alerts = new SpecificAvroDeserializer<>(Alert.class);
        KafkaConsumer<String, byte[]> kafka =
            new KafkaConsumer<>(
                consumerConfig, new StringDeserializer(), new ByteArrayDeserializer())) {
      alerts.configure(serdeConfig, false);
      consumer = kafka;
      kafka.subscribe(List.of(topic));
      LOG.info("forwarding alerts of topic {} to {} as {}", topic, webhook, format);
      while (!stopping) {
        ConsumerRecords<String, byte[]> records;
        try {
          records = kafka.poll(Duration.ofMillis(500));
        } catch (WakeupException e) {
          break;
        }
        for (ConsumerRecord<String, byte[]> record : records) {
          Alert alert = read(alerts, record);
          if (alert != null && !deliver(record, alert)) {
            return delivered; // stopped before the webhook took it: not committed
          }
          kafka.commitSync(
              Map.of(
                  new TopicPartition(record.topic(), record.partition()),
                  new OffsetAndMetadata(record.offset() + 1)));
        }
      }
      return delivered;
    } finally {
      consumer = null;
    }
  }

  /** Ends {@link #run()}: a send waiting to be retried is given up, and not committed. */
  public void stop() {
    stopping = true;
    KafkaConsumer<String, byte[]> current = consumer;
    if (current != null) {
      current.wakeup();
    }
    synchronized (pause) {
      pause.notifyAll();
    }
  }

  private Alert read(SpecificAvroDeserializer<Alert> alerts, ConsumerRecord<String, byte[]> r) {
    try {
      return alerts.deserialize(r.topic(), r.value());
    } catch (RuntimeException e) {
      LOG.error(
          "topic {} partition {} offset {} holds no alert, skipped: {}",
          r.topic(),
          r.partition(),
          r.offset(),
          e.getMessage());
      return null;
    }
  }

  /** Sends until the webhook takes it (true), or until stopped (false); a repeat is not sent. */
  private boolean deliver(ConsumerRecord<String, byte[]> record, Alert alert)
      throws InterruptedException {
    String identity = record.key() + "\u0000" + alert.getCode() + "\u0000" + alert.getRunId();
    if (sent.containsKey(identity)) {
      LOG.debug("alert {} of run {} already sent", record.key(), alert.getRunId());
      return true;
    }
    byte[] body = format.body(alert);
    Duration wait = retryFirst;
    for (int attempt = 1; !stopping; attempt++) {
      String failure = post(body);
      if (failure == null) {
        sent.put(identity, Boolean.TRUE);
        delivered++;
        LOG.info(
            "alert {} {} (partition {} offset {}) sent to {}",
            alert.getCode(),
            record.key(),
            record.partition(),
            record.offset(),
            webhook);
        return true;
      }
      LOG.warn(
          "alert {} {} (partition {} offset {}): attempt {} failed: {}; again in {} ms",
          alert.getCode(),
          record.key(),
          record.partition(),
          record.offset(),
          attempt,
          failure,
          wait.toMillis());
      synchronized (pause) {
        if (!stopping) {
          pause.wait(wait.toMillis());
        }
      }
      wait = wait.multipliedBy(2).compareTo(retryMax) > 0 ? retryMax : wait.multipliedBy(2);
    }
    return false;
  }

  /** POSTs once; null when the webhook answered 2xx, else why not. */
  private String post(byte[] body) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(webhook)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    try {
      HttpResponse<String> response =
          http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      int status = response.statusCode();
      return status / 100 == 2 ? null : "HTTP " + status + " from " + webhook;
    } catch (IOException e) {
      return e.getClass().getSimpleName() + " from " + webhook + ": " + e.getMessage();
    }
  }
}
