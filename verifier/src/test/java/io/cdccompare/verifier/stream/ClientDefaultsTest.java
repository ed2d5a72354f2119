package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The client settings the verifier chooses for latency, and that a user's own settings win. */
class ClientDefaultsTest {

  private static VerifierSettings.Builder settings() {
    return VerifierSettings.builder("eu-1")
        .bootstrapServers("kafka:9092")
        .registryUrl("http://registry:8081")
        .topicPrefix("shop")
        .table(TableName.parse("public.orders"))
        .target("jdbc:postgresql://db/shop", "verifier", "s3cret");
  }

  @Test
  void theHashRecordReaderHoldsNoFetchLongerThanTenMillisecondsNorFetchesAMebibyte() {
    // Given the default settings / Then the reader's fetches come back within 10 ms and bring
    // at most 256 KiB of a partition (no humongous fetch buffer in a small G1 heap)
    assertThat(KafkaTopicReader.clientConfig(settings().build()))
        .containsEntry("fetch.max.wait.ms", 10)
        .containsEntry("max.partition.fetch.bytes", 256 * 1024)
        .containsEntry("bootstrap.servers", "kafka:9092")
        .doesNotContainKey("group.id");
  }

  @Test
  void aFetchWaitOfTheUsersConsumerSettingsWins() {
    // Given a consumer fetch wait in the verifier's settings
    VerifierSettings own = settings().streamsProperty("consumer.fetch.max.wait.ms", "50").build();

    // Then the reader keeps it
    assertThat(KafkaTopicReader.clientConfig(own)).containsEntry("fetch.max.wait.ms", "50");
  }

  @Test
  void resultsArePublishedWithoutStreamsHundredMillisecondLinger() {
    // Given the default settings
    Properties props = VerifyTopologyFactory.streamsProperties(settings().build());

    // Then the producer lingers 5 ms; a linger.ms of the user's, prefixed or not, wins
    assertThat(props).containsEntry("producer.linger.ms", "5");
    assertThat(
            VerifyTopologyFactory.streamsProperties(
                settings().streamsProperty("linger.ms", "50").build()))
        .doesNotContainKey("producer.linger.ms")
        .containsEntry("linger.ms", "50");
    assertThat(
            VerifyTopologyFactory.streamsProperties(
                settings().streamsProperty("producer.linger.ms", "20").build()))
        .containsEntry("producer.linger.ms", "20");
  }

  @Test
  void theFollowedGroupIsReadWithTheAdminAndSecuritySettingsOfTheVerifier() {
    // Given a verify-only target on a secured cluster
    VerifierSettings own =
        settings()
            .verifyOnly("sink")
            .streamsProperty("admin.request.timeout.ms", "7000")
            .streamsProperty("security.protocol", "SASL_SSL")
            .streamsProperty("consumer.fetch.max.wait.ms", "50")
            .build();

    // Then its admin client has them, under an id of its own, and no consumer setting
    assertThat(AdminFollowedGroup.clientConfig(own))
        .containsEntry("request.timeout.ms", "7000")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("client.id", "cdc-compare-verify-eu-1-follow")
        .containsEntry("bootstrap.servers", "kafka:9092")
        .doesNotContainKey("fetch.max.wait.ms");
  }
}
