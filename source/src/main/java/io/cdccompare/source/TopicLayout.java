package io.cdccompare.source;

import io.cdccompare.core.stream.TableTopic;
import io.cdccompare.core.table.TableName;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The table topics of a capture: {@code <prefix>.<schema>.<table>} (characters Kafka does not allow
 * become {@code _}), created up front with the configured partition count. The count a topic had
 * when the capture first used it is recorded on the source; a topic whose count differs now (the
 * key-to-partition mapping changed) or a configuration asking for another count is refused.
 */
public final class TopicLayout {
  /**
   * Where the partition count each topic was first captured with is recorded (the capture's {@code
   * repi.capturetopics}).
   */
  public interface PartitionRecord {
    Optional<Integer> recordedPartitions(String topic) throws SQLException;

    void recordPartitions(String topic, int partitions) throws SQLException;
  }

  private final Map<TableName, String> topics;
  private final int partitions;

  public TopicLayout(String prefix, List<TableName> tables, int partitions) {
    this.partitions = partitions;
    this.topics = new LinkedHashMap<>();
    Map<String, TableName> seen = new HashMap<>();
    for (TableName t : tables) {
      String topic = topicName(prefix, t);
      TableName clash = seen.putIfAbsent(topic, t);
      if (clash != null) {
        throw new IllegalArgumentException(
            "tables " + clash + " and " + t + " would share topic " + topic + "; rename one");
      }
      topics.put(t, topic);
    }
  }

  public static String topicName(String prefix, TableName table) {
    return TableTopic.name(prefix, table);
  }

  public String topicOf(TableName table) {
    String topic = topics.get(table);
    if (topic == null) {
      throw new IllegalArgumentException("table " + table + " is not captured");
    }
    return topic;
  }

  public Map<TableName, String> topics() {
    return topics;
  }

  public int partitions() {
    return partitions;
  }

  /** Creates missing topics and checks every topic's partition count against the record. */
  public void ensure(Admin admin, PartitionRecord catalog, short replication)
      throws SQLException, InterruptedException, ExecutionException {
    for (String topic : topics.values()) {
      Optional<Integer> recorded = catalog.recordedPartitions(topic);
      if (recorded.isPresent() && recorded.get() != partitions) {
        throw new IllegalArgumentException(
            "topic.partitions is "
                + partitions
                + " but topic "
                + topic
                + " was captured with "
                + recorded.get()
                + " partitions; changing it moves keys to other partitions (a full resync is needed)");
      }
      Optional<Integer> actual = partitionCount(admin, topic);
      if (actual.isEmpty()) {
        create(admin, topic, partitions, replication);
        actual = Optional.of(partitions);
      }
      int expected = recorded.orElse(partitions);
      if (actual.get() != expected) {
        throw new IllegalArgumentException(
            "topic "
                + topic
                + " has "
                + actual.get()
                + " partitions but the capture "
                + (recorded.isPresent() ? "recorded " : "is configured with ")
                + expected
                + "; the key-to-partition mapping would change, refusing to run");
      }
      catalog.recordPartitions(topic, partitions);
    }
  }

  public static Optional<Integer> partitionCount(Admin admin, String topic)
      throws InterruptedException, ExecutionException {
    try {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
      return Optional.of(d.partitions().size());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw e;
    }
  }

  public static void create(Admin admin, String topic, int partitions, short replication)
      throws InterruptedException, ExecutionException {
    create(admin, new NewTopic(topic, Optional.of(partitions), Optional.of(replication)));
  }

  public static void createCompacted(Admin admin, String topic, short replication)
      throws InterruptedException, ExecutionException {
    create(
        admin,
        new NewTopic(topic, Optional.of(1), Optional.of(replication))
            .configs(
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
  }

  private static void create(Admin admin, NewTopic topic)
      throws InterruptedException, ExecutionException {
    try {
      admin.createTopics(List.of(topic)).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
    }
  }
}
