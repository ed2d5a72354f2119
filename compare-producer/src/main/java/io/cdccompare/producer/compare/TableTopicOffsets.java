package io.cdccompare.producer.compare;

import io.cdccompare.core.stream.TopicOffsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Where the table topics stand in Kafka: each topic's id and its end and earliest offsets per
 * partition ({@link TopicOffsets}), and whether it is compacted. A compare run records the end
 * offsets when a table's run starts; an incremental run checks and reads the range since the last
 * completed run ({@link ChangedKeyReader}) with this object's consumer: {@code read_committed}, no
 * group, no offset reset (a record that is gone is an error, never a silent skip), assigned and
 * sought by the reader. Not thread-safe: one run's thread uses it.
 */
final class TableTopicOffsets implements AutoCloseable {
  private final CompareConfig config;
  private final Admin admin;
  private final KafkaConsumer<byte[], byte[]> consumer;

  TableTopicOffsets(CompareConfig config) {
    this.config = config;
    Map<String, Object> admins = new HashMap<>(config.withPrefix("admin."));
    admins.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    this.admin = Admin.create(admins);
    Map<String, Object> consumers = new HashMap<>(config.withPrefix("admin."));
    consumers.keySet().retainAll(ConsumerConfig.configNames());
    consumers.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    consumers.put(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        IsolationLevel.READ_COMMITTED.toString().toLowerCase(Locale.ROOT));
    consumers.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    consumers.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    consumers.remove(ConsumerConfig.GROUP_ID_CONFIG);
    this.consumer =
        new KafkaConsumer<>(consumers, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * The topic's end offsets now: with {@code read_committed}, the offset after the last record a
   * reader can see in each partition.
   */
  TopicOffsets end(String topic) throws InterruptedException {
    TopicDescription description = describe(topic);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions(description));
    return offsets(description, ends);
  }

  /** The topic's earliest offsets now (its log start: retention and deleted records move it). */
  TopicOffsets earliest(String topic) throws InterruptedException {
    TopicDescription description = describe(topic);
    Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions(description));
    return offsets(description, starts);
  }

  /** The topic's {@code cleanup.policy}, e.g. {@code delete} or {@code compact,delete}. */
  String cleanupPolicy(String topic) throws InterruptedException {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config topicConfig =
        AdminCalls.get(
                admin.describeConfigs(List.of(resource)).all(),
                "describe the configuration of topic " + topic,
                config.bootstrapServers())
            .get(resource);
    ConfigEntry policy = topicConfig.get(TopicConfig.CLEANUP_POLICY_CONFIG);
    return policy == null ? TopicConfig.CLEANUP_POLICY_DELETE : policy.value();
  }

  /** The consumer the changed keys are read with; its assignment is the reader's. */
  KafkaConsumer<byte[], byte[]> consumer() {
    return consumer;
  }

  private TopicDescription describe(String topic) throws InterruptedException {
    return AdminCalls.get(
            admin.describeTopics(List.of(topic)).allTopicNames(),
            "describe topic " + topic,
            config.bootstrapServers())
        .get(topic);
  }

  private static List<TopicPartition> partitions(TopicDescription description) {
    return IntStream.range(0, description.partitions().size())
        .mapToObj(p -> new TopicPartition(description.name(), p))
        .toList();
  }

  private static TopicOffsets offsets(TopicDescription description, Map<TopicPartition, Long> at) {
    return new TopicOffsets(
        description.name(),
        description.topicId().toString(),
        partitions(description).stream().map(at::get).toList());
  }

  @Override
  public void close() {
    consumer.close();
    admin.close();
  }
}
