package io.cdccompare.producer.compare;

import io.cdccompare.core.stream.TopicOffsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Where the table topics stand in Kafka: each topic's id and its end and earliest offsets per
 * partition ({@link TopicOffsets}), and whether it is compacted. A compare run records the end
 * offsets when a table's run starts; an incremental run checks and reads the range since the last
 * completed run ({@link ChangedKeyReader}) with this object's consumer: {@code read_committed}, no
 * group, no offset reset (a record that is gone is an error, never a silent skip), assigned and
 * sought by the reader. Not thread-safe, but for {@link #states}: one run's thread uses the rest.
 */
final class TableTopicOffsets implements AutoCloseable {
  private final CompareConfig config;
  private final Admin admin;
  private final boolean ownAdmin;
  private final KafkaConsumer<byte[], byte[]> consumer;

  /** With an admin client of its own. */
  TableTopicOffsets(CompareConfig config) {
    this(config, null);
  }

  /**
   * @param admin the admin client to ask with, which the caller closes after this; null for one of
   *     its own
   */
  TableTopicOffsets(CompareConfig config, Admin admin) {
    this.config = config;
    this.ownAdmin = admin == null;
    if (ownAdmin) {
      Map<String, Object> admins = new HashMap<>(config.withPrefix("admin."));
      admins.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
      this.admin = Admin.create(admins);
    } else {
      this.admin = admin;
    }
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

  /**
   * Where a table topic stands now.
   *
   * @param end its end offsets (read_committed), as {@link #end}
   * @param earliest its earliest offsets (its log start: retention and deleted records move it)
   * @param cleanupPolicy its {@code cleanup.policy}, e.g. {@code delete} or {@code compact,delete}
   */
  record TopicState(TopicOffsets end, TopicOffsets earliest, String cleanupPolicy) {}

  /**
   * Where each of {@code topics} stands now, asked all at once with the admin client: their
   * descriptions and configurations together, then their end and earliest offsets together (two
   * round trips for any number of topics). The end offsets are {@code read_committed}, as the
   * consumer's. A topic that does not exist is absent from the answer. Thread-safe (the consumer is
   * not used).
   */
  Map<String, TopicState> states(Collection<String> topics) throws InterruptedException {
    String servers = config.bootstrapServers();
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(topics).topicNameValues();
    Map<ConfigResource, KafkaFuture<Config>> configured =
        admin
            .describeConfigs(
                topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList())
            .values();
    Map<String, TopicDescription> descriptions = new HashMap<>();
    for (String topic : topics) {
      try {
        descriptions.put(topic, described.get(topic).get());
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw AdminCalls.failure("describe topic " + topic, servers, e);
        }
      }
    }
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
    descriptions
        .values()
        .forEach(
            d ->
                partitions(d)
                    .forEach(
                        tp -> {
                          latest.put(tp, OffsetSpec.latest());
                          earliest.put(tp, OffsetSpec.earliest());
                        }));
    var ends =
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all();
    var starts = admin.listOffsets(earliest).all();
    Map<TopicPartition, Long> endAt = offsetsOf(AdminCalls.get(ends, "list end offsets", servers));
    Map<TopicPartition, Long> startAt =
        offsetsOf(AdminCalls.get(starts, "list earliest offsets", servers));
    Map<String, TopicState> states = new HashMap<>();
    for (TopicDescription description : descriptions.values()) {
      String topic = description.name();
      ConfigEntry policy =
          AdminCalls.get(
                  configured.get(new ConfigResource(ConfigResource.Type.TOPIC, topic)),
                  "describe the configuration of topic " + topic,
                  servers)
              .get(TopicConfig.CLEANUP_POLICY_CONFIG);
      states.put(
          topic,
          new TopicState(
              offsets(description, endAt),
              offsets(description, startAt),
              policy == null ? TopicConfig.CLEANUP_POLICY_DELETE : policy.value()));
    }
    return states;
  }

  private static Map<TopicPartition, Long> offsetsOf(
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answers) {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    answers.forEach((tp, info) -> offsets.put(tp, info.offset()));
    return offsets;
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
    if (ownAdmin) {
      admin.close();
    }
  }
}
