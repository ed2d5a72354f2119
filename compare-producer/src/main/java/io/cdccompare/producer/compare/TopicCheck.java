package io.cdccompare.producer.compare;

import io.cdccompare.config.KafkaProbe;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The compare task's view of Kafka: each table topic exists with the partition count the capture
 * recorded (the key-to-partition mapping the hash records are split by), and the hashes topic
 * exists — created compacted when missing — with a known largest record size.
 */
final class TopicCheck implements AutoCloseable {
  /** Room left in a record for the batch framing, the record key and the wire-format header. */
  static final int FRAMING_BYTES = 1024;

  private final CompareConfig config;
  private final Admin admin;

  /** Opens one admin client for every check of a task's start. */
  TopicCheck(CompareConfig config) {
    this.config = config;
    Map<String, Object> props = new HashMap<>(config.withPrefix("admin."));
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    this.admin = Admin.create(props);
  }

  /** Fails naming the bootstrap servers when Kafka does not answer, before anything is changed. */
  void requireReachable() throws InterruptedException {
    KafkaProbe.requireReachable(admin, config.bootstrapServers(), KafkaProbe.DEFAULT_TIMEOUT);
  }

  /**
   * Refuses a target whose verifier is not running: its consumer group ({@code group}, the
   * verifier's {@code application.id}) has no member, so nothing would apply or verify what a
   * repair sends.
   *
   * @throws IllegalStateException naming the target, the group and the group's state
   */
  void requireVerifierRunning(String target, String group) throws InterruptedException {
    String state;
    try {
      ConsumerGroupDescription description =
          admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
      state = description.members().isEmpty() ? description.groupState().toString() : null;
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw AdminCalls.failure("describe consumer group " + group, config.bootstrapServers(), e);
      }
      state = "not found";
    }
    if (state != null) {
      throw new IllegalStateException(
          "the verifier of target "
              + target
              + " is not running: its consumer group "
              + group
              + " has no member (state "
              + state
              + "); start it with 'cdc-compare verify --target "
              + target
              + "' before a repair, which changes nothing until then");
    }
  }

  /** Refuses a table topic that is missing or has another partition count than recorded. */
  void requireTableTopics(List<ScanPlan> plans) throws InterruptedException {
    for (ScanPlan plan : plans) {
      requireTableTopic(
          plan, describe(admin, plan.topic()).map(description -> description.partitions().size()));
    }
  }

  /**
   * Refuses the plan's table topic when it is missing ({@code partitions} empty) or has another
   * partition count than the capture recorded.
   */
  static void requireTableTopic(ScanPlan plan, Optional<Integer> partitions) {
    int found =
        partitions.orElseThrow(
            () ->
                new ConfigException(
                    "table "
                        + plan.task().table()
                        + ": its topic "
                        + plan.topic()
                        + " does not exist; start the capture first"));
    if (!plan.externalCapture() && found != plan.partitions()) {
      throw new ConfigException(
          "table "
              + plan.task().table()
              + ": topic "
              + plan.topic()
              + " has "
              + found
              + " partitions but the capture recorded "
              + plan.partitions()
              + "; the key-to-partition mapping changed, so no chunk can be verified");
    }
  }

  /** The admin client of these checks, for other requests of the same start; closed by this. */
  Admin admin() {
    return admin;
  }

  /**
   * Creates the hashes topic (compacted) when missing.
   *
   * @return the largest hash record to write ({@link #hashesTopicLimit})
   */
  int ensureHashesTopic() throws InterruptedException {
    OptionalInt limit = hashesTopicLimit();
    if (limit.isPresent()) {
      return limit.getAsInt();
    }
    String topic = config.hashesTopic();
    NewTopic newTopic =
        new NewTopic(
                topic,
                Optional.of(config.hashesTopicPartitions()),
                config.hashesTopicReplicationFactor() < 0
                    ? Optional.empty()
                    : Optional.of(config.hashesTopicReplicationFactor()))
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    try {
      admin.createTopics(List.of(newTopic)).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException(
            "cannot create hashes topic " + topic + ": " + e.getCause().getMessage(), e);
      }
    }
    return limit(topic);
  }

  /**
   * The largest hash record to write when the hashes topic exists, empty when it does not (nothing
   * is created): the smaller of the topic's {@code max.message.bytes} and the producer's {@code
   * max.request.size} less {@link #FRAMING_BYTES}, or {@code hashes.max.record.bytes} when smaller.
   */
  OptionalInt hashesTopicLimit() throws InterruptedException {
    String topic = config.hashesTopic();
    if (describe(admin, topic).isEmpty()) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(limit(topic));
  }

  private int limit(String topic) throws InterruptedException {
    try {
      Config topicConfig = describeConfig(admin, topic);
      int topicMax =
          Integer.parseInt(topicConfig.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value());
      Object requestSize =
          config.withPrefix("producer.").get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
      int producerMax =
          requestSize == null ? 1024 * 1024 : Integer.parseInt(requestSize.toString().strip());
      int limit = Math.min(topicMax, producerMax) - FRAMING_BYTES;
      int configured = config.hashesMaxRecordBytes();
      return configured > 0 ? Math.min(configured, limit) : limit;
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cannot describe hashes topic " + topic + ": " + e.getCause().getMessage(), e);
    }
  }

  /**
   * The topic's configuration. A topic created a moment ago may not be known to the broker that
   * answers yet (its metadata follows the controller's): that is waited for, up to 30 s.
   */
  private static Config describeConfig(Admin admin, String topic)
      throws InterruptedException, ExecutionException {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        return admin.describeConfigs(List.of(resource)).all().get().get(resource);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
            || System.nanoTime() > deadline) {
          throw e;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
        if (Thread.interrupted()) {
          throw new InterruptedException("waiting for topic " + topic);
        }
      }
    }
  }

  private Optional<TopicDescription> describe(Admin admin, String topic)
      throws InterruptedException {
    try {
      return Optional.of(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw AdminCalls.failure("describe topic " + topic, config.bootstrapServers(), e);
    }
  }

  @Override
  public void close() {
    admin.close();
  }
}
