package io.cdccompare.operations.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Reads the table topics' partitions, their start and end offsets (Kafka's earliest and latest,
 * uncommitted isolation: the end offset is the high watermark) and the verifiers' committed group
 * offsets, with one admin client for both reads. Reads only: it never creates a topic or joins a
 * group.
 */
final class TopicOffsetsReader implements AutoCloseable {
  private final Map<String, Object> adminProperties;
  private Admin admin;
  private final Duration timeout;

  /**
   * @param adminProperties admin client settings, {@code bootstrap.servers} included
   */
  TopicOffsetsReader(Map<String, Object> adminProperties, Duration timeout) {
    this.adminProperties = adminProperties;
    this.timeout = timeout;
  }

  /**
   * The verifiers' committed group offsets. Read them before the checkpoints: a group never commits
   * past its checkpoint + 1, so offsets read first never show ahead of checkpoints read after.
   *
   * @param groups the verifiers' application ids
   * @throws TimeoutException when Kafka does not answer within the timeout
   */
  Groups readGroups(Collection<String> groups)
      throws InterruptedException, ExecutionException, TimeoutException {
    Instant deadline = Instant.now().plus(timeout);
    Admin admin = admin();
    Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
    Map<String, String> groupErrors = new HashMap<>();
    Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
    groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
    ListConsumerGroupOffsetsResult offsets = admin.listConsumerGroupOffsets(specs);
    for (String group : specs.keySet()) {
      try {
        Map<TopicPartition, Long> byPartition = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> read =
            get(offsets.partitionsToOffsetAndMetadata(group), deadline);
        read.forEach(
            (p, o) -> {
              if (o != null) {
                byPartition.put(p, o.offset());
              }
            });
        committed.put(group, byPartition);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof TimeoutException
            || e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
          throw e;
        }
        groupErrors.put(
            group, "offsets of consumer group " + group + ": " + Reasons.oneLine(e.getCause()));
      }
    }
    return new Groups(committed, groupErrors);
  }

  /** Committed offsets per group, and the groups whose offsets could not be read. */
  record Groups(Map<String, Map<TopicPartition, Long>> offsets, Map<String, String> errors) {}

  /**
   * The table topics' partitions with their start and end offsets, read after the checkpoints (an
   * end offset read first could show a checkpoint past the end), together with {@code groups}.
   *
   * @param topics the table topics
   * @throws TimeoutException when Kafka does not answer within the timeout
   * @throws ExecutionException when Kafka refuses a read the whole status needs
   */
  TopicOffsets read(Collection<String> topics, Groups groups)
      throws InterruptedException, ExecutionException, TimeoutException {
    Instant deadline = Instant.now().plus(timeout);
    Admin admin = admin();
    Map<TopicPartition, TopicOffsets.Range> partitions = new HashMap<>();
    Set<String> missing = new HashSet<>();
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(topics).topicNameValues();
    List<TopicPartition> existing = new ArrayList<>();
    for (String topic : topics) {
      try {
        TopicDescription description = get(described.get(topic), deadline);
        description
            .partitions()
            .forEach(p -> existing.add(new TopicPartition(topic, p.partition())));
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw e;
        }
        missing.add(topic);
      }
    }
    if (!existing.isEmpty()) {
      Map<TopicPartition, ListOffsetsResultInfo> start =
          get(admin.listOffsets(spec(existing, OffsetSpec.earliest())).all(), deadline);
      Map<TopicPartition, ListOffsetsResultInfo> end =
          get(admin.listOffsets(spec(existing, OffsetSpec.latest())).all(), deadline);
      for (TopicPartition p : existing) {
        partitions.put(p, new TopicOffsets.Range(start.get(p).offset(), end.get(p).offset()));
      }
    }
    return new TopicOffsets(partitions, missing, groups.offsets(), groups.errors());
  }

  /** One admin client for both reads, created at the first. */
  private synchronized Admin admin() {
    if (admin == null) {
      admin = Admin.create(props());
    }
    return admin;
  }

  @Override
  public synchronized void close() {
    if (admin != null) {
      admin.close();
    }
  }

  private Map<String, Object> props() {
    Map<String, Object> props = new HashMap<>(adminProperties);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "cdc-compare-status");
    return props;
  }

  private static Map<TopicPartition, OffsetSpec> spec(
      List<TopicPartition> partitions, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> out = new HashMap<>();
    partitions.forEach(p -> out.put(p, spec));
    return out;
  }

  private <T> T get(KafkaFuture<T> future, Instant deadline)
      throws InterruptedException, ExecutionException, TimeoutException {
    long left = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
    try {
      return future.get(left, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new TimeoutException("Kafka did not answer within " + timeout.toSeconds() + " s");
    }
  }
}
