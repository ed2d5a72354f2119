package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * How many stream threads a verifier runs by default ({@link StreamThreads}), read from the table
 * topics on a real broker.
 */
@WithEmbedded(Component.KAFKA)
class StreamThreadsIT {
  private static final TableName ORDERS = TableName.parse("public.orders");
  private static final TableName ITEMS = TableName.parse("public.items");

  @Test
  void oneThreadPerPartitionOfTheWidestTableTopicAtMostEight(EmbeddedEnvironment env)
      throws Exception {
    // Given table topics of 4 and 2 partitions, and of another prefix 12 and 2
    String prefix = "threads" + UUID.randomUUID().toString().substring(0, 8);
    String wide = "wide" + UUID.randomUUID().toString().substring(0, 8);
    VerifierSettings four = settings(env, prefix);
    VerifierSettings twelve = settings(env, wide);
    create(env, four.tables().topicOf(ORDERS), 4);
    create(env, four.tables().topicOf(ITEMS), 2);
    create(env, twelve.tables().topicOf(ORDERS), 12);
    create(env, twelve.tables().topicOf(ITEMS), 2);

    // When the defaults are set
    Properties props = new Properties();
    int threads = StreamThreads.setDefault(four, props);
    Properties wideProps = new Properties();
    int wideThreads = StreamThreads.setDefault(twelve, wideProps);

    // Then one thread per partition of the widest topic, capped
    assertThat(threads).isEqualTo(4);
    assertThat(props).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "4");
    assertThat(wideThreads).isEqualTo(StreamThreads.MAX).isEqualTo(8);
    assertThat(wideProps).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "8");
  }

  @Test
  void beforeTheCaptureMadeTheTopicsTheCapturesDefaultPartitionsAndAGivenCountIsKept(
      EmbeddedEnvironment env) throws Exception {
    // Given no table topic yet
    VerifierSettings none = settings(env, "none" + UUID.randomUUID().toString().substring(0, 8));

    // When / Then: the capture's default topic.partitions
    Properties props = new Properties();
    assertThat(StreamThreads.setDefault(none, props)).isEqualTo(3);
    assertThat(props).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "3");

    // And a count the targets file gives (streams.num.stream.threads) is kept as it is
    Properties given = new Properties();
    given.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, " 1");
    assertThat(StreamThreads.setDefault(none, given)).isEqualTo(1);
    assertThat(given).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, " 1");
  }

  @Test
  void aMariaDbTargetRunsOneThread(EmbeddedEnvironment env) throws Exception {
    // Given table topics of 4 partitions, and a MariaDB target
    String prefix = "maria" + UUID.randomUUID().toString().substring(0, 8);
    VerifierSettings maria =
        VerifierSettings.builder("threads")
            .bootstrapServers(env.kafka().bootstrapServers())
            .registryUrl("http://unused:8081")
            .topicPrefix(prefix)
            .table(ORDERS)
            .target("jdbc:mariadb://unused/db", "u", "p")
            .build();
    create(env, maria.tables().topicOf(ORDERS), 4);

    // When / Then: one thread (InnoDB's gap locks would make parallel applies deadlock)
    Properties props = new Properties();
    assertThat(StreamThreads.setDefault(maria, props)).isEqualTo(1);
    assertThat(props).containsEntry(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
  }

  private static VerifierSettings settings(EmbeddedEnvironment env, String prefix) {
    return VerifierSettings.builder("threads")
        .bootstrapServers(env.kafka().bootstrapServers())
        .registryUrl("http://unused:8081")
        .topicPrefix(prefix)
        .table(ORDERS)
        .table(ITEMS)
        .target("jdbc:postgresql://unused/db", "u", "p")
        .build();
  }

  private static void create(EmbeddedEnvironment env, String topic, int partitions)
      throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
  }
}
