package io.cdccompare.topology.verify;

import io.cdccompare.verifier.sql.Dialect;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How many stream threads a verifier runs unless {@code streams.num.stream.threads} says: on a
 * PostgreSQL target one per partition of its table topics, so the partitions' applies and CLOSE
 * markers run side by side instead of one after another on one thread (docs/design.md, "Stream
 * threads"). A stream task holds partition p of every table topic (they are co-partitioned), so
 * more threads than partitions would idle; at most {@link #MAX} are started by default.
 *
 * <p>On a MariaDB target one: InnoDB's gap and next-key locks make the applies of several
 * partitions into one table deadlock each other (measured: the first batches of three threads into
 * an empty table and its checkpoint table did), where PostgreSQL's row locks on distinct keys do
 * not.
 */
public final class StreamThreads {
  /** The most stream threads started by default. */
  public static final int MAX = 8;

  /**
   * The threads when no table topic exists yet (the capture creates them): the capture's default
   * {@code topic.partitions}.
   */
  static final int BEFORE_TOPICS = 3;

  private StreamThreads() {}

  /**
   * Sets {@code num.stream.threads} in {@code props}, unless the settings give it: on a PostgreSQL
   * target the most partitions of the settings' table topics (at most {@link #MAX}), on MariaDB 1.
   *
   * @return the threads the application will run
   */
  public static int setDefault(VerifierSettings settings, Properties props)
      throws InterruptedException {
    Object given = props.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG);
    if (given != null) {
      return Integer.parseInt(given.toString().strip());
    }
    boolean postgres = Dialect.forJdbcUrl(settings.targetJdbcUrl()).name().equals("postgresql");
    int threads = postgres ? Math.min(MAX, partitions(settings)) : 1;
    props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(threads));
    return threads;
  }

  /** The most partitions among the table topics that exist, {@link #BEFORE_TOPICS} if none. */
  private static int partitions(VerifierSettings settings) throws InterruptedException {
    List<String> topics = settings.topics();
    try (Admin admin = Admin.create(adminConfig(settings))) {
      Map<String, TopicDescription> found = new HashMap<>();
      for (var e : admin.describeTopics(topics).topicNameValues().entrySet()) {
        try {
          found.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException missing) {
          // not created yet (or not answered): the others decide
        }
      }
      return found.values().stream()
          .mapToInt(d -> d.partitions().size())
          .max()
          .orElse(BEFORE_TOPICS);
    }
  }

  /**
   * The admin client settings of a verifier: its bootstrap servers and the {@code admin.}-prefixed
   * streams properties (security and the like).
   */
  static Map<String, Object> adminConfig(VerifierSettings settings) {
    Map<String, Object> config = new HashMap<>();
    settings
        .streamsProperties()
        .forEach(
            (key, value) -> {
              if (key.startsWith("admin.")) {
                config.put(key.substring("admin.".length()), value);
              }
            });
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    return config;
  }
}
