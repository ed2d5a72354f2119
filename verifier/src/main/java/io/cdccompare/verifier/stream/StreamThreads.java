package io.cdccompare.verifier.stream;

import io.cdccompare.jdbc.sql.Dialect;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
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
    boolean postgres =
        Dialect.forJdbcUrl(settings.database().jdbcUrl()).name().equals("postgresql");
    int threads = postgres ? Math.min(MAX, partitions(settings)) : 1;
    props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(threads));
    return threads;
  }

  /** The most partitions among the table topics that exist, {@link #BEFORE_TOPICS} if none. */
  private static int partitions(VerifierSettings settings) throws InterruptedException {
    try (Admin admin = Admin.create(settings.kafka().clientSettings("admin."))) {
      int most = 0;
      for (var answer :
          admin.describeTopics(settings.tables().topics()).topicNameValues().values()) {
        try {
          most = Math.max(most, answer.get(30, TimeUnit.SECONDS).partitions().size());
        } catch (ExecutionException | TimeoutException missing) {
          // not created yet (or not answered): the others decide
        }
      }
      return most > 0 ? most : BEFORE_TOPICS;
    }
  }
}
