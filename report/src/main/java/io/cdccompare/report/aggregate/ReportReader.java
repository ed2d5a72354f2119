package io.cdccompare.report.aggregate;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
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
 * read_committed}), so it sees every record written before the call. It never creates a topic (a
 * missing one is a {@link MissingTopicException}), and a broker that does not answer fails a read
 * within the timeout with a {@link TimeoutException} naming the bootstrap servers. Not thread-safe;
 * one reader per caller.
 */
public final class ReportReader {
  /** The consumer's own default request timeout, kept when the read's timeout is longer. */
  private static final int DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

  private final ReportConfig config;
  private final String bootstrapServers;
  private final Map<String, Object> consumerConfig;
  private final Duration timeout;

  /** The topic a read needs does not exist: no verifier has run with this topic prefix. */
  public static final class MissingTopicException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final String topic;

    public MissingTopicException(String topic) {
      super("topic " + topic + " does not exist (no verifier has run with this topic.prefix)");
      this.topic = topic;
    }

    public String topic() {
      return topic;
    }
  }

  /**
   * @param consumerProperties consumer settings (security and the like), without prefix
   * @param timeout longest one read may take, metadata included
   */
  public ReportReader(
      ReportConfig config,
      String bootstrapServers,
      Map<String, Object> consumerProperties,
      Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    this.config = config;
    this.bootstrapServers = bootstrapServers;
    this.timeout = timeout;
    Map<String, Object> props = new HashMap<>(consumerProperties);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // a broker with auto.create.topics.enable must not create a missing report topic for a reader
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    // no call of the consumer may outlast the read's timeout
    int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
    props.put(
        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, DEFAULT_REQUEST_TIMEOUT_MS));
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
   * @throws TimeoutException naming the topic and the bootstrap servers when it cannot be read
   *     within the timeout
   * @throws MissingTopicException when the report topic does not exist
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

  /**
   * Every chunk result the results topic holds that {@code wanted} accepts, in topic order.
   *
   * @throws TimeoutException naming the topic and the bootstrap servers when it cannot be read
   *     within the timeout
   * @throws MissingTopicException when the results topic does not exist
   */
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

  /**
   * Every hash record the hashes topic still holds that {@code wanted} accepts, in topic order,
   * those a later tombstone removes included (a tombstone deletes a record only when the log is
   * compacted): what {@code report explain} compares a row's current hash with.
   *
   * @throws TimeoutException naming the topic and the bootstrap servers when it cannot be read
   *     within the timeout
   * @throws MissingTopicException when the hashes topic does not exist
   */
  public List<HashRecord> hashes(Predicate<HashRecord> wanted) {
    List<HashRecord> out = new ArrayList<>();
    read(
        config.hashesTopic(),
        HashRecord.class,
        (key, record) -> {
          if (record != null && wanted.test(record)) {
            out.add(record);
          }
        });
    return out;
  }

  private <T extends SpecificRecord> void read(
      String topic, Class<T> type, java.util.function.BiConsumer<String, T> sink) {
    try {
      readToEnd(topic, type, sink);
    } catch (TimeoutException e) {
      throw new TimeoutException(
          "cannot read topic "
              + topic
              + " from Kafka at "
              + bootstrapServers
              + " within "
              + timeout.toSeconds()
              + " s (is the broker reachable?): "
              + e.getMessage(),
          e);
    }
  }

  private <T extends SpecificRecord> void readToEnd(
      String topic, Class<T> type, java.util.function.BiConsumer<String, T> sink) {
    Instant deadline = Instant.now().plus(timeout);
    try (SpecificAvroDeserializer<T> values = new SpecificAvroDeserializer<>(type);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig)) {
      values.configure(config.serdeConfig(), false);
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      if (infos == null || infos.isEmpty()) {
        throw new MissingTopicException(topic);
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
