package io.cdccompare.operations.status;

import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.avro.ReportEntry;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Reads the compares from the compacted report topic with report's {@link ReportReader}: the latest
 * task entry (every table of the task summed) per task and target. A missing report topic means no
 * verifier has run yet; it is looked up with the admin client first, so reading never creates it.
 */
final class CompareReader {
  private final ReportConfig report;
  private final String bootstrapServers;
  private final Map<String, Object> adminProperties;
  private final Map<String, Object> consumerProperties;
  private final Duration timeout;

  /**
   * @param adminProperties admin client settings, {@code bootstrap.servers} included
   * @param consumerProperties consumer settings without {@code bootstrap.servers}
   */
  CompareReader(
      ReportConfig report,
      String bootstrapServers,
      Map<String, Object> adminProperties,
      Map<String, Object> consumerProperties,
      Duration timeout) {
    this.report = report;
    this.bootstrapServers = bootstrapServers;
    this.adminProperties = adminProperties;
    this.consumerProperties = consumerProperties;
    this.timeout = timeout;
  }

  CompareStatus read() throws InterruptedException, ExecutionException, TimeoutException {
    if (!reportExists()) {
      return CompareStatus.noReport(report.reportTopic());
    }
    Map<String, Object> props = new HashMap<>(consumerProperties);
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    List<CompareStatus.Entry> entries =
        new ReportReader(report, bootstrapServers, props, timeout)
            .entries().stream()
                .filter(e -> e.getTable() == null)
                .map(CompareReader::entry)
                .sorted(
                    Comparator.comparing(CompareStatus.Entry::task)
                        .thenComparing(CompareStatus.Entry::target))
                .toList();
    return new CompareStatus(report.reportTopic(), true, entries, null);
  }

  private boolean reportExists() throws InterruptedException, ExecutionException, TimeoutException {
    Map<String, Object> props = new HashMap<>(adminProperties);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "cdc-compare-status");
    try (Admin admin = Admin.create(props)) {
      admin
          .describeTopics(List.of(report.reportTopic()))
          .allTopicNames()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw e;
    } catch (TimeoutException e) {
      throw new TimeoutException("Kafka did not answer within " + timeout.toSeconds() + " s");
    }
  }

  /** The compare of a task entry (table null), its status as the entry spells it. */
  static CompareStatus.Entry entry(ReportEntry e) {
    return new CompareStatus.Entry(
        e.getTask(),
        e.getTarget(),
        e.getRunId(),
        e.getStatus().name(),
        e.getCaptureChunks(),
        e.getApplyChunks(),
        e.getLastUpdate());
  }
}
