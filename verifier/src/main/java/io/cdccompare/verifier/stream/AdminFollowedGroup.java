package io.cdccompare.verifier.stream;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * A {@link FollowedGroup} read with a Kafka {@link Admin} client of its own ({@code
 * listConsumerGroupOffsets}), created at first use. Its client settings are the verifier's {@code
 * admin.}-prefixed streams properties and its security settings, like {@link KafkaTopicReader}'s. A
 * group that does not exist answers no offsets. Not thread-safe: one per processor.
 */
final class AdminFollowedGroup implements FollowedGroup {
  /** The longest one read of the group's offsets may take. */
  static final long READ_TIMEOUT_MS = 10_000;

  private final String groupId;
  private final Map<String, Object> config;
  private Admin admin;

  AdminFollowedGroup(String groupId, Map<String, Object> config) {
    this.groupId = groupId;
    this.config = Map.copyOf(config);
  }

  /** One per processor, for the settings' followed group. */
  static Supplier<FollowedGroup> supplier(VerifierSettings settings) {
    Map<String, Object> config = clientConfig(settings);
    return () -> new AdminFollowedGroup(settings.follow().group(), config);
  }

  /** The admin client's configuration for these settings. */
  static Map<String, Object> clientConfig(VerifierSettings settings) {
    Map<String, Object> config = settings.kafka().clientSettings("admin.");
    config.put(AdminClientConfig.CLIENT_ID_CONFIG, settings.applicationId() + "-follow");
    return config;
  }

  @Override
  public String groupId() {
    return groupId;
  }

  @Override
  public Map<Integer, Long> committedOffsets(String topic) {
    Map<TopicPartition, OffsetAndMetadata> all;
    try {
      all =
          admin()
              .listConsumerGroupOffsets(groupId)
              .partitionsToOffsetAndMetadata()
              .get(READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return Map.of();
      }
      throw new IllegalStateException(
          "committed offsets of consumer group " + groupId + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "committed offsets of consumer group "
              + groupId
              + ": no answer within "
              + READ_TIMEOUT_MS
              + " ms",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted reading the committed offsets of consumer group " + groupId, e);
    }
    Map<Integer, Long> offsets = new HashMap<>();
    all.forEach(
        (tp, committed) -> {
          if (committed != null && tp.topic().equals(topic)) {
            offsets.put(tp.partition(), committed.offset());
          }
        });
    return offsets;
  }

  private Admin admin() {
    if (admin == null) {
      admin = Admin.create(config);
    }
    return admin;
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close();
      admin = null;
    }
  }
}
