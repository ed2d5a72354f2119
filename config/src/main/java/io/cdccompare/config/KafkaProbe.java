package io.cdccompare.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Fails fast, naming the bootstrap servers, when Kafka cannot be reached: an admin client would
 * otherwise wait its whole API timeout and then report a node assignment it could not make, which
 * names no server. Every command calls it before it changes anything.
 */
public final class KafkaProbe {
  /** How long a command waits for Kafka to answer before it gives up. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

  private KafkaProbe() {}

  /**
   * Asks the cluster for its nodes through an admin client the caller already holds.
   *
   * @throws IllegalStateException naming the bootstrap servers when no answer came in time
   */
  public static void requireReachable(Admin admin, String bootstrapServers, Duration timeout)
      throws InterruptedException {
    try {
      // the call itself times out too, so the caller's admin client closes without waiting for it
      admin
          .describeCluster(
              new DescribeClusterOptions()
                  .timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())))
          .nodes()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException(
          "cannot reach Kafka at "
              + bootstrapServers
              + " within "
              + timeout.toSeconds()
              + " s"
              + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
          e);
    }
  }

  /**
   * Asks the cluster for its nodes, with an admin client of its own.
   *
   * @param adminProperties admin client settings (security and the like), without prefix
   * @throws IllegalStateException naming the bootstrap servers when no answer came in time
   */
  public static void requireReachable(
      String bootstrapServers, Map<String, Object> adminProperties, Duration timeout)
      throws InterruptedException {
    Map<String, Object> props = new HashMap<>(adminProperties);
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
    try (Admin admin = Admin.create(props)) {
      requireReachable(admin, bootstrapServers, timeout);
    }
  }
}
