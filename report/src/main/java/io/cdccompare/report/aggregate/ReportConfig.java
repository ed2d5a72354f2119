package io.cdccompare.report.aggregate;

import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What the report aggregation needs to run: its Kafka Streams application id, the topics it reads
 * (results, hashes) and writes (report, alerts), and the schema registry of their Avro records.
 * {@link #of} gives every topic its default under the capture's topic prefix. Immutable.
 *
 * @param applicationId the Streams {@code application.id}: consumer group, and the prefix of the
 *     internal topics
 * @param resultsTopic chunk results of every target's verifier (default {@code
 *     <prefix>.compare.results})
 * @param hashesTopic hash records of the compare producer (default {@code <prefix>.compare.hashes})
 * @param reportTopic the compacted report (default {@code <prefix>.compare.report})
 * @param alertsTopic alert events (default {@code <prefix>.compare.alerts})
 * @param registryUrl {@code schema.registry.url}; {@code mock://NAME} for an in-JVM registry
 * @param registrySettings the file's other {@code schema.registry.*} settings, without the prefix
 *     (basic authentication, timeouts)
 */
public record ReportConfig(
    String applicationId,
    String resultsTopic,
    String hashesTopic,
    String reportTopic,
    String alertsTopic,
    String registryUrl,
    Map<String, String> registrySettings) {

  /** Without registry settings beyond the URL. */
  public ReportConfig(
      String applicationId,
      String resultsTopic,
      String hashesTopic,
      String reportTopic,
      String alertsTopic,
      String registryUrl) {
    this(applicationId, resultsTopic, hashesTopic, reportTopic, alertsTopic, registryUrl, Map.of());
  }

  public ReportConfig {
    registrySettings = Map.copyOf(registrySettings);
    requireText(applicationId, "applicationId");
    requireText(resultsTopic, "resultsTopic");
    requireText(hashesTopic, "hashesTopic");
    requireText(reportTopic, "reportTopic");
    requireText(alertsTopic, "alertsTopic");
    requireText(registryUrl, "registryUrl");
  }

  /**
   * The defaults under {@code topicPrefix} (the capture's {@code topic.prefix}): topics {@code
   * <prefix>.compare.results}, {@code .hashes}, {@code .report}, {@code .alerts} and application id
   * {@code <prefix>-compare-report}.
   */
  public static ReportConfig of(String topicPrefix, String registryUrl) {
    requireText(topicPrefix, "topicPrefix");
    return of(topicPrefix, CompareTopics.defaults(topicPrefix), registryUrl);
  }

  /** The topics named, and the application id {@code <prefix>-compare-report}. */
  public static ReportConfig of(String topicPrefix, CompareTopics topics, String registryUrl) {
    requireText(topicPrefix, "topicPrefix");
    return new ReportConfig(
        topicPrefix + "-compare-report",
        topics.results(),
        topics.hashes(),
        topics.report(),
        topics.alerts(),
        registryUrl);
  }

  /** The serde settings of the Avro topics. */
  public Map<String, Object> serdeConfig() {
    return RegistryClientConfig.serdeSettings(registryUrl, registrySettings);
  }

  /**
   * The same with the file's {@code schema.registry.*} settings (without the prefix; the URL is
   * {@link #registryUrl}).
   */
  public ReportConfig withRegistrySettings(Map<String, ?> settings) {
    Map<String, String> own = new java.util.TreeMap<>();
    settings.forEach((k, v) -> own.put(k, String.valueOf(v)));
    own.remove("url");
    return new ReportConfig(
        applicationId, resultsTopic, hashesTopic, reportTopic, alertsTopic, registryUrl, own);
  }

  /**
   * Streams settings to run the topology against {@code bootstrapServers}: this application id and
   * exactly-once processing, so that totals, alerts and the offsets of the results they came from
   * are committed together (an alert is never lost or doubled by a crash).
   */
  public Properties streamsProperties(String bootstrapServers) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    return props;
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("report " + name + " must not be empty");
    }
  }
}
