package io.cdccompare.verifier.stream;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.verifier.apply.RecordPosition;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alerts a verifier raises itself (docs/design.md, "Delivery guarantees", "Bad input" and
 * "Verify-only targets"): a poison record reports its table {@code UNVERIFIABLE} on this target, a
 * position that cannot be continued {@code RESYNC_NEEDED} (the task stops after both), a chunk of a
 * verify-only target whose followed group did not pass its CLOSE marker {@code STALLED} (the task
 * goes on); one {@link Alert} on {@code <prefix>.compare.alerts}, key {@code target/table}, naming
 * the table, topic, partition and offset. Sent with a producer of its own, at once and
 * synchronously, because the task may stop right after (its Streams producer may not flush). A
 * failure to send is logged; the task stops with its error either way.
 */
interface StopAlerts {
  Logger LOG = LoggerFactory.getLogger(StopAlerts.class);

  /** Raises an alert about the record at {@code at}, of {@code table} (null if unknown). */
  void raise(AlertCode code, RecordPosition at, TableName table, RuntimeException error);

  /** No alerts (topology tests). */
  static StopAlerts none() {
    return (code, at, table, error) -> {};
  }

  /** The settings' alerts topic, created when missing. */
  static String topic(VerifierSettings settings) {
    return settings.tables().alertsTopic();
  }

  /** Alerts to Kafka: the settings' bootstrap servers, registry and {@code producer.*} extras. */
  static StopAlerts kafka(VerifierSettings settings, Map<String, Object> registry, Clock clock) {
    return (code, at, table, error) -> {
      String topic = topic(settings);
      Alert alert =
          Alert.newBuilder()
              .setCode(code)
              .setOrigin(settings.target())
              .setTarget(settings.target())
              .setTable(table == null ? null : table.toString())
              .setMessage(
                  "table "
                      + table
                      + switch (code) {
                        case UNVERIFIABLE -> " is unverifiable on target ";
                        case STALLED -> " is stalled on verify-only target ";
                        default -> " needs a resync of target ";
                      }
                      + settings.target()
                      + ": "
                      + error.getMessage())
              .setTopic(at.topic())
              .setPartition(at.partition())
              .setOffset(at.offset())
              .setRaisedAt(clock.instant())
              .build();
      Map<String, Object> config = settings.kafka().clientSettings("producer.");
      config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
      SpecificAvroSerializer<Alert> values = new SpecificAvroSerializer<>();
      values.configure(registry, false);
      try {
        ResultsTopic.ensure(settings, topic);
        try (KafkaProducer<String, Alert> producer =
            new KafkaProducer<>(config, new StringSerializer(), values)) {
          producer
              .send(new ProducerRecord<>(topic, settings.target() + "/" + table, alert))
              .get(30, TimeUnit.SECONDS);
        }
        LOG.error(
            "target={} table={} {} alert sent to {}: {}",
            settings.target(),
            table,
            code,
            topic,
            error.getMessage());
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.error(
            "target={} table={} the " + code + " alert of {} could not be sent to {}",
            settings.target(),
            table,
            at,
            topic,
            e);
      }
    };
  }
}
