package io.cdccompare.core.stream;

import java.util.function.Function;

/**
 * The names of the compare's own topics under the capture's {@code topic.prefix}, defined once: the
 * compare task, the capture, the verifiers and the report aggregation all start from these defaults
 * and each configuration file may name another topic (its {@code hashes.topic}, {@code
 * results.topic}, {@code report.topic}, {@code alerts.topic} keys).
 *
 * @param hashes the compare producer's hash records ({@code <prefix>.compare.hashes})
 * @param results the verifiers' chunk results ({@code <prefix>.compare.results})
 * @param report the report aggregation's entries ({@code <prefix>.compare.report})
 * @param alerts alert events of the capture, the verifiers and the report ({@code
 *     <prefix>.compare.alerts})
 */
public record CompareTopics(String hashes, String results, String report, String alerts) {
  /** The configuration keys that name each topic, the same in every file that has them. */
  public static final String HASHES_KEY = "hashes.topic";

  public static final String RESULTS_KEY = "results.topic";
  public static final String REPORT_KEY = "report.topic";
  public static final String ALERTS_KEY = "alerts.topic";

  public CompareTopics {
    requireName(hashes, "hashes");
    requireName(results, "results");
    requireName(report, "report");
    requireName(alerts, "alerts");
  }

  /** The default names under a topic prefix. */
  public static CompareTopics defaults(String topicPrefix) {
    if (topicPrefix == null || topicPrefix.isBlank()) {
      throw new IllegalArgumentException("the topic prefix must not be empty");
    }
    String base = topicPrefix + ".compare.";
    return new CompareTopics(base + "hashes", base + "results", base + "report", base + "alerts");
  }

  /**
   * The defaults under the prefix with the names a configuration file sets in their place.
   *
   * @param setting a file's value of one of the four keys, null when it has no such key or the key
   *     is not set
   */
  public static CompareTopics configured(String topicPrefix, Function<String, String> setting) {
    return defaults(topicPrefix)
        .with(
            setting.apply(HASHES_KEY),
            setting.apply(RESULTS_KEY),
            setting.apply(REPORT_KEY),
            setting.apply(ALERTS_KEY));
  }

  /**
   * These names with the configured ones in their place; a null or blank configured name keeps the
   * default.
   */
  public CompareTopics with(String hashes, String results, String report, String alerts) {
    return new CompareTopics(
        orDefault(hashes, this.hashes),
        orDefault(results, this.results),
        orDefault(report, this.report),
        orDefault(alerts, this.alerts));
  }

  private static String orDefault(String configured, String fallback) {
    return configured == null || configured.isBlank() ? fallback : configured.strip();
  }

  private static void requireName(String name, String which) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("the " + which + " topic name must not be empty");
    }
  }
}
