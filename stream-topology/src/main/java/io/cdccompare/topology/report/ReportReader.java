package io.cdccompare.topology.report;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the report as it stands: the latest entry of every key of the compacted report topic, and
 * chunk results of the results topic. Each read takes the topic's end offsets first and reads every
 * partition from its start up to them (no consumer group, nothing committed, {@code
 * read_committed}), so it sees every record written before the call. Not thread-safe; one reader
 * per caller.
 */
public final class ReportReader {
  private final ReportConfig config;
  private final Map<String, Object> consumerConfig;
  private final Duration timeout;

  /**
   * @param consumerProperties consumer settings (security and the like), without prefix
   * @param timeout longest one read may take, metadata included
   */
  public ReportReader(
      ReportConfig config,
      String bootstrapServers,
      Map<String, Object> consumerProperties,
      Duration timeout) {
    this.config = config;
    this.timeout = timeout;
    Map<String, Object> props = new HashMap<>(consumerProperties);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
    this.consumerConfig = props;
  }

  /**
   * The latest report entry of every (task, target, table) and (task, target), in key order of
   * first appearance; a tombstone removes its key.
   *
   * @throws TimeoutException naming the topic when it cannot be read within the timeout
   */
  public List<ReportEntry> entries() {
    Map<String, ReportEntry> latest = new LinkedHashMap<>();
    read(
        config.reportTopic(),
        ReportEntry.class,
        (key, entry) -> {
          if (entry == null) {
            latest.remove(key);
          } else {
            latest.put(key, entry);
          }
        });
    return new ArrayList<>(latest.values());
  }

  /** Every chunk result the results topic holds that {@code wanted} accepts, in topic order. */
  public List<ChunkResult> results(Predicate<ChunkResult> wanted) {
    List<ChunkResult> out = new ArrayList<>();
    read(
        config.resultsTopic(),
        ChunkResult.class,
        (key, result) -> {
          if (result != null && wanted.test(result)) {
            out.add(result);
          }
        });
    return out;
  }

  private <T extends SpecificRecord> void read(
      String topic, Class<T> type, java.util.function.BiConsumer<String, T> sink) {
    Instant deadline = Instant.now().plus(timeout);
    try (SpecificAvroDeserializer<T> values = new SpecificAvroDeserializer<>(type);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig)) {
      values.configure(config.serdeConfig(), false);
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      if (infos == null || infos.isEmpty()) {
        throw new IllegalStateException(
            "topic " + topic + " does not exist (no verifier has run with this topic.prefix)");
      }
      List<TopicPartition> partitions = new ArrayList<>();
      infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, timeout));
      end.entrySet().removeIf(e -> consumer.position(e.getKey(), timeout) >= e.getValue());
      while (!end.isEmpty()) {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative()) {
          throw new TimeoutException(
              "reading topic " + topic + " to its end took longer than " + timeout);
        }
        for (ConsumerRecord<byte[], byte[]> record :
            consumer.poll(
                left.compareTo(Duration.ofMillis(500)) < 0 ? left : Duration.ofMillis(500))) {
          String key =
              record.key() == null
                  ? null
                  : new String(record.key(), java.nio.charset.StandardCharsets.UTF_8);
          sink.accept(key, values.deserialize(record.topic(), record.headers(), record.value()));
        }
        end.entrySet().removeIf(e -> consumer.position(e.getKey(), timeout) >= e.getValue());
      }
    }
  }
}
