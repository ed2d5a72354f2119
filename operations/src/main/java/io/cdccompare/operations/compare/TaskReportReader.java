package io.cdccompare.operations.compare;

import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The reader of a compare task's report and results topics, from the task file: what {@code compare
 * run --wait}, {@code compare recheck} and {@code compare repair} read their verdicts with.
 */
public final class TaskReportReader {
  /** Longest one read of the report or results topic. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private TaskReportReader() {}

  public static ReportReader of(CompareConfig task) {
    return new ReportReader(
        ReportConfig.of(task.topicPrefix(), task.topics(), task.schemaRegistryUrl())
            .withRegistrySettings(task.withPrefix(RegistryClientConfig.PREFIX)),
        task.bootstrapServers(),
        consumerSettings(task),
        READ_TIMEOUT);
  }

  /**
   * The reader's consumer settings: the task file has no {@code consumer.*} section, so the {@code
   * admin.*} settings that a consumer also knows (security, SASL, TLS) are reused.
   */
  private static Map<String, Object> consumerSettings(CompareConfig task) {
    Map<String, Object> settings = new HashMap<>(task.withPrefix("admin."));
    settings.keySet().retainAll(ConsumerConfig.configNames());
    return settings;
  }
}
