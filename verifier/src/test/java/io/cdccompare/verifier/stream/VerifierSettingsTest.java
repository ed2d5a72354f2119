package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.table.TableName;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VerifierSettingsTest {
  private static final TableName ORDERS = TableName.parse("public.orders");
  private static final TableName ITEMS = TableName.parse("\"Sales Dept\".items");

  private static VerifierSettings.Builder minimal() {
    return VerifierSettings.builder("eu-1")
        .bootstrapServers("kafka:9092")
        .registryUrl("http://registry:8081")
        .topicPrefix("shop")
        .table(ORDERS)
        .target("jdbc:postgresql://db/shop", "verifier", "s3cret");
  }

  @Test
  void defaultsFollowTheTargetAndThePrefix() {
    // When only the required settings are given
    VerifierSettings settings = minimal().table(ITEMS, TableName.parse("archive.items")).build();

    // Then the defaults are in force
    assertThat(settings.applicationId()).isEqualTo("cdc-compare-verify-eu-1");
    assertThat(settings.tables().resultsTopic()).isEqualTo("shop.compare.results");
    assertThat(settings.apply().batchSize()).isEqualTo(500);
    assertThat(settings.apply().maxDelay()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.verify().fetchSize()).isEqualTo(10_000);
    assertThat(settings.verify().hashesTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.database().bookkeepingSchema()).isNull();
    assertThat(settings.tables().topics())
        .containsExactly("shop.public.orders", "shop.Sales_Dept.items");
    assertThat(settings.targetTableOf(ORDERS)).isEqualTo(ORDERS);
    assertThat(settings.targetTableOf(ITEMS)).isEqualTo(TableName.parse("archive.items"));
  }

  @Test
  void thePasswordIsNeverShown() {
    assertThat(minimal().build().toString()).doesNotContain("s3cret").contains("eu-1");
  }

  @Test
  void missingAndInvalidSettingsAreRefusedByName() {
    assertThatThrownBy(() -> VerifierSettings.builder("eu 1").build())
        .hasMessageContaining("target must be letters");
    assertThatThrownBy(() -> minimal().bootstrapServers(" ").build())
        .hasMessage("bootstrap.servers is required");
    assertThatThrownBy(() -> minimal().target("jdbc:oracle:thin:@db", "u", "p").build())
        .hasMessageContaining("target.url must be a jdbc:postgresql:");
    assertThatThrownBy(() -> minimal().applyBatchSize(0).build())
        .hasMessage("apply.batch.size must be positive, was 0");
    assertThatThrownBy(() -> minimal().fetchSize(-1).build())
        .hasMessage("fetch.size must be positive, was -1");
    assertThatThrownBy(() -> minimal().applyMaxDelay(Duration.ZERO).build())
        .hasMessageContaining("apply.max.delay must be positive");
    assertThatThrownBy(() -> minimal().table(ORDERS).build())
        .hasMessageContaining("lists a table twice");
    assertThatThrownBy(
            () ->
                VerifierSettings.builder("eu-1")
                    .bootstrapServers("kafka:9092")
                    .registryUrl("http://registry:8081")
                    .topicPrefix("shop")
                    .target("jdbc:postgresql://db/shop", "u", "p")
                    .build())
        .hasMessage("tables must name at least one source table");
  }

  @Test
  void twoSourceTablesOnOneTargetTableAreRefused() {
    assertThatThrownBy(() -> minimal().table(ITEMS, ORDERS).build())
        .hasMessageContaining("two source tables are applied to one target table");
  }

  @Test
  void propertiesTheGuaranteesRestOnCannotBeOverridden() {
    for (String key :
        new String[] {"application.id", "auto.offset.reset", "processing.exception.handler"}) {
      assertThatThrownBy(() -> minimal().streamsProperty(key, "x").build())
          .hasMessageContaining("streams property " + key + " is set by the verifier");
    }
  }

  @Test
  void streamsPropertiesKeepTheSafetySettings() {
    // Given extra properties
    VerifierSettings settings =
        minimal().streamsProperty("commit.interval.ms", "1000").applicationId("my-app").build();

    // When the Kafka Streams properties are built
    var props = VerifyTopologyFactory.streamsProperties(settings);

    // Then the extras are kept and the identity and safety settings are the verifier's
    assertThat(props.getProperty("commit.interval.ms")).isEqualTo("1000");
    assertThat(props.getProperty("application.id")).isEqualTo("my-app");
    assertThat(props.getProperty("main.consumer.auto.offset.reset")).isEqualTo("earliest");
    assertThat(props.getProperty("processing.exception.handler")).contains("LogAndFail");
  }

  @Test
  void aTargetIsApplyVerifyByDefault() {
    VerifierSettings settings = minimal().build();

    assertThat(settings.follow().mode()).isEqualTo(TargetMode.APPLY_VERIFY);
    assertThat(settings.verifyOnly()).isFalse();
    assertThat(settings.follow().group()).isNull();
    assertThat(settings.follow().stallTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.maxPollInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(settings.followWaitLimit()).isEqualTo(Duration.ofSeconds(135));
  }

  @Test
  void verifyOnlyNeedsTheGroupOfAnotherApplier() {
    assertThatThrownBy(() -> minimal().mode(TargetMode.VERIFY_ONLY).build())
        .hasMessageContaining("follow.group is required when mode is verify-only");
    assertThatThrownBy(() -> minimal().followGroup("sink").build())
        .hasMessageContaining("follow.group is set but mode is apply-verify");
    assertThatThrownBy(() -> minimal().verifyOnly("cdc-compare-verify-eu-1").build())
        .hasMessageContaining("is the verifier's own application.id cdc-compare-verify-eu-1");
    assertThat(minimal().verifyOnly("sink").build().follow().group()).isEqualTo("sink");
  }

  @Test
  void theStallTimeoutIsAtLeastASecondAndBelowHalfTheMaxPollInterval() {
    assertThatThrownBy(() -> minimal().followStallTimeout(Duration.ofMillis(999)).build())
        .hasMessageContaining("follow.stall.timeout.ms must be at least 1000, was 999");
    assertThatThrownBy(
            () ->
                minimal()
                    .verifyOnly("sink")
                    .streamsProperty("consumer.max.poll.interval.ms", "120000")
                    .build())
        .hasMessageContaining("less than half of the verifier's max.poll.interval.ms (120000)");
    VerifierSettings settings =
        minimal()
            .verifyOnly("sink")
            .streamsProperty("consumer.max.poll.interval.ms", "120000")
            .followStallTimeout(Duration.ofSeconds(59))
            .statementTimeout(Duration.ofSeconds(10))
            .retryTimeout(Duration.ofSeconds(20))
            .build();
    assertThat(settings.followWaitLimit()).isEqualTo(Duration.ofSeconds(54));
  }

  @Test
  void targetTimeoutsDefaultTo30And60SecondsAndStayBelowHalfTheMaxPollInterval() {
    VerifierSettings defaults = minimal().build();
    assertThat(defaults.retries().statementTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.retries().retryTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThatThrownBy(() -> minimal().statementTimeout(Duration.ZERO).build())
        .hasMessageContaining("statement.timeout.ms must be positive, was 0");
    assertThatThrownBy(() -> minimal().retryTimeout(Duration.ofMillis(-1)).build())
        .hasMessageContaining("retry.timeout.ms must be 0 or more, was -1");
    assertThatThrownBy(
            () ->
                minimal()
                    .streamsProperty("max.poll.interval.ms", "180000")
                    .statementTimeout(Duration.ofSeconds(30))
                    .retryTimeout(Duration.ofSeconds(60))
                    .build())
        .hasMessageContaining(
            "retry.timeout.ms (60000) plus statement.timeout.ms (30000) must be less than half of"
                + " the verifier's max.poll.interval.ms (180000)");
    assertThat(
            minimal()
                .streamsProperty("max.poll.interval.ms", "180000")
                .retryTimeout(Duration.ofSeconds(59))
                .build()
                .retries()
                .retryTimeout())
        .isEqualTo(Duration.ofSeconds(59));
  }
}
