package io.cdccompare.report.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The topics the report aggregation reads and writes must exist before it starts: Kafka Streams
 * fails on a missing source topic and waits on a missing sink. Missing ones are created — the
 * report and hashes topics compacted (their latest value per key is the state), the hashes topic
 * with the compare producer's default of 3 partitions, the others with the broker's defaults.
 * Several processes may race to create them, which is fine.
 */
public final class ReportTopics {
  /** Partitions of a hashes topic created here, as the compare producer's default. */
  static final int HASHES_PARTITIONS = 3;

  private ReportTopics() {}

  /**
   * Creates whichever of the results, hashes, report and alerts topics is missing.
   *
   * @param adminProperties admin client settings (security and the like), without prefix
   */
  public static void ensure(
      ReportConfig config, String bootstrapServers, Map<String, Object> adminProperties)
      throws InterruptedException, ExecutionException {
    Map<String, Object> props = new HashMap<>(adminProperties);
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    Map<String, String> compacted =
        Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing = new ArrayList<>();
      if (!existing.contains(config.resultsTopic())) {
        missing.add(new NewTopic(config.resultsTopic(), Optional.empty(), Optional.empty()));
      }
      if (!existing.contains(config.alertsTopic())) {
        missing.add(new NewTopic(config.alertsTopic(), Optional.empty(), Optional.empty()));
      }
      if (!existing.contains(config.reportTopic())) {
        missing.add(
            new NewTopic(config.reportTopic(), Optional.empty(), Optional.empty())
                .configs(compacted));
      }
      if (!existing.contains(config.hashesTopic())) {
        missing.add(
            new NewTopic(config.hashesTopic(), Optional.of(HASHES_PARTITIONS), Optional.empty())
                .configs(compacted));
      }
      for (NewTopic topic : missing) {
        try {
          admin.createTopics(List.of(topic)).all().get();
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
  }
}
