package io.cdccompare.operations.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.verifier.stream.ConnectPipeline;
import io.cdccompare.verifier.stream.TargetMode;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TargetsConfigTest {

  private static Map<String, String> twoTargets() {
    Map<String, String> values = new HashMap<>();
    values.put("topic.prefix", "shop");
    values.put("bootstrap.servers", "k1:9092,k2:9092");
    values.put("schema.registry.url", "http://registry:8081");
    values.put("tables", "public.orders, public.customers");
    values.put("target.a.url", "jdbc:postgresql://a:5432/shop");
    values.put("target.a.user", "ua");
    values.put("target.a.password", "pa");
    values.put("target.b.url", "jdbc:mariadb://b:3306/shop");
    values.put("target.b.table.public.orders", "sales.orders_copy");
    values.put("target.b.bookkeeping.schema", "cdc");
    return values;
  }

  @Test
  void eachTargetSectionBecomesTheSettingsOfItsVerifier() {
    // Given a file with two targets, one mapping a table and keeping its bookkeeping apart
    Map<String, String> values = twoTargets();
    values.put("apply.batch.size", "200");
    values.put("apply.max.delay.ms", "50");
    values.put("streams.commit.interval.ms", "100");

    // When each target's settings are built
    TargetsConfig config = TargetsConfig.of(values);
    VerifierSettings a = config.verifierSettings("a");
    VerifierSettings b = config.verifierSettings("b");

    // Then they share Kafka and the tables, and keep what their section says
    assertThat(config.targetNames()).containsExactly("a", "b");
    assertThat(a.kafka().bootstrapServers()).isEqualTo("k1:9092,k2:9092");
    assertThat(a.applicationId()).isEqualTo("cdc-compare-verify-a");
    assertThat(a.database().user()).isEqualTo("ua");
    assertThat(a.apply().batchSize()).isEqualTo(200);
    assertThat(a.apply().maxDelay()).isEqualTo(Duration.ofMillis(50));
    assertThat(a.kafka().streamsProperties()).containsEntry("commit.interval.ms", "100");
    assertThat(a.targetTableOf(TableName.parse("public.orders")))
        .isEqualTo(TableName.parse("public.orders"));
    assertThat(b.database().jdbcUrl()).isEqualTo("jdbc:mariadb://b:3306/shop");
    assertThat(b.database().bookkeepingSchema()).isEqualTo("cdc");
    assertThat(b.targetTableOf(TableName.parse("public.orders")))
        .isEqualTo(TableName.parse("sales.orders_copy"));
    assertThat(b.targetTableOf(TableName.parse("public.customers")))
        .isEqualTo(TableName.parse("public.customers"));
    assertThat(config.reportConfig().reportTopic()).isEqualTo("shop.compare.report");
    assertThat(config.source()).isEmpty();
    assertThat(config.slotName()).isEqualTo("cdc_compare_shop");
  }

  @Test
  void customTopicNamesReachTheVerifiersAndTheReport() {
    // Given a file that names its own hashes, results, report and alerts topics
    Map<String, String> values = twoTargets();
    values.put("hashes.topic", "audit.hashes");
    values.put("results.topic", "audit.results");
    values.put("report.topic", "audit.report");
    values.put("alerts.topic", "ops.alerts");

    // When the verifiers' and the report's settings are built
    TargetsConfig config = TargetsConfig.of(values);
    VerifierSettings a = config.verifierSettings("a");

    // Then every program uses those names: the verifiers publish results and stop alerts there,
    // the report reads the results and the noted chunks and writes its entries and alerts there
    assertThat(a.tables().resultsTopic()).isEqualTo("audit.results");
    assertThat(a.tables().alertsTopic()).isEqualTo("ops.alerts");
    assertThat(config.reportConfig().resultsTopic()).isEqualTo("audit.results");
    assertThat(config.reportConfig().hashesTopic()).isEqualTo("audit.hashes");
    assertThat(config.reportConfig().reportTopic()).isEqualTo("audit.report");
    assertThat(config.reportConfig().alertsTopic()).isEqualTo("ops.alerts");
  }

  @Test
  void registrySettingsReachTheVerifiersAndTheReport() {
    // Given a file with basic authentication for the registry
    Map<String, String> values = twoTargets();
    values.put("schema.registry.basic.auth.user.info", "cdc:s3cret");

    // When the verifiers' and the report's serde settings are built
    TargetsConfig config = TargetsConfig.of(values);

    // Then both carry it under the key the registry client reads (before, only the URL reached
    // the report, and the verifiers read registry keys from streams.* alone)
    assertThat(config.verifierSettings("a").kafka().registrySettings())
        .containsExactly(Map.entry("basic.auth.user.info", "cdc:s3cret"));
    assertThat(
            RegistryClientConfig.fromConfigs(config.reportConfig().serdeConfig())
                .basicAuthUserInfo())
        .contains("cdc:s3cret");
  }

  @Test
  void withoutTopicNamesEveryProgramUsesTheDefaultsUnderThePrefix() {
    // Given a file that names no topic / When the settings are built
    TargetsConfig config = TargetsConfig.of(twoTargets());

    // Then the verifiers and the report agree on shop.compare.*
    assertThat(config.verifierSettings("b").tables().resultsTopic())
        .isEqualTo("shop.compare.results");
    assertThat(config.verifierSettings("b").tables().alertsTopic())
        .isEqualTo("shop.compare.alerts");
    assertThat(config.reportConfig().hashesTopic()).isEqualTo("shop.compare.hashes");
    assertThat(config.reportConfig().alertsTopic()).isEqualTo("shop.compare.alerts");
  }

  @Test
  void theTargetToRunMustBeNamedWhenThereAreSeveral() {
    TargetsConfig config = TargetsConfig.of(twoTargets());

    assertThatThrownBy(() -> config.targetName(null))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("[a, b]")
        .hasMessageContaining("--target");
    assertThatThrownBy(() -> config.targetName("c"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target 'c' is not defined");
    assertThat(config.targetName("b")).isEqualTo("b");
  }

  @Test
  void theOnlyTargetNeedsNoName() {
    Map<String, String> values = twoTargets();
    values.keySet().removeIf(k -> k.startsWith("target.b."));

    assertThat(TargetsConfig.of(values).targetName(null)).isEqualTo("a");
  }

  @Test
  void anUnknownKeyOfATargetIsNamed() {
    Map<String, String> values = twoTargets();
    values.put("target.a.pasword", "x");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target.a.pasword");
  }

  @Test
  void anUnknownTopLevelKeyIsNamed() {
    Map<String, String> values = twoTargets();
    values.put("aply.batch.size", "5");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("aply.batch.size");
  }

  @Test
  void aTargetWithoutUrlOrAMappedTableOutsideTablesIsRefused() {
    Map<String, String> noUrl = twoTargets();
    noUrl.remove("target.b.url");
    assertThatThrownBy(() -> TargetsConfig.of(noUrl)).hasMessageContaining("target.b.url");

    Map<String, String> stray = twoTargets();
    stray.put("target.a.table.public.items", "public.items");
    assertThatThrownBy(() -> TargetsConfig.of(stray))
        .hasMessageContaining("target.a.table.public.items")
        .hasMessageContaining("not in tables");
  }

  @Test
  void theTargetsListMustMatchTheSections() {
    Map<String, String> listed = twoTargets();
    listed.put("targets", "a");
    assertThatThrownBy(() -> TargetsConfig.of(listed))
        .hasMessageContaining("target.b.*")
        .hasMessageContaining("does not list 'b'");

    Map<String, String> missing = twoTargets();
    missing.put("targets", "a, b, c");
    assertThatThrownBy(() -> TargetsConfig.of(missing)).hasMessageContaining("'c'");
  }

  @Test
  void noTargetAtAllIsRefused() {
    Map<String, String> values = twoTargets();
    values.keySet().removeIf(k -> k.startsWith("target."));

    assertThatThrownBy(() -> TargetsConfig.of(values)).hasMessageContaining("at least one target");
  }

  @Test
  void theSourceIsOptionalAndTakenWhenGiven() {
    Map<String, String> values = twoTargets();
    values.put("source.hostname", "src");
    values.put("source.database", "shop");
    values.put("source.user", "cdc");
    values.put("slot.name", "my_slot");

    TargetsConfig config = TargetsConfig.of(values);

    assertThat(config.source()).isPresent();
    assertThat(config.source().get().jdbcUrl()).isEqualTo("jdbc:postgresql://src:5432/shop");
    assertThat(config.slotName()).isEqualTo("my_slot");
  }

  @Test
  void aTargetIsApplyVerifyUnlessItsModeSaysVerifyOnly() {
    // Given target b verify-only, following the group of its Connect sink
    Map<String, String> values = twoTargets();
    values.put("target.b.mode", "verify-only");
    values.put("target.b.follow.group", "connect-jdbc-sink-b");
    values.put("follow.stall.timeout.ms", "20000");

    // When
    TargetsConfig config = TargetsConfig.of(values);
    VerifierSettings a = config.verifierSettings("a");
    VerifierSettings b = config.verifierSettings("b");

    // Then
    assertThat(a.follow().mode()).isEqualTo(TargetMode.APPLY_VERIFY);
    assertThat(a.verifyOnly()).isFalse();
    assertThat(a.follow().group()).isNull();
    assertThat(a.follow().stallTimeout()).isEqualTo(Duration.ofSeconds(20)); // one for the file
    assertThat(b.follow().mode()).isEqualTo(TargetMode.VERIFY_ONLY);
    assertThat(b.verifyOnly()).isTrue();
    assertThat(b.follow().group()).isEqualTo("connect-jdbc-sink-b");
    assertThat(b.follow().stallTimeout()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void verifyOnlyWithoutTheFollowedGroupIsRefusedNamingTheKey() {
    Map<String, String> values = twoTargets();
    values.put("target.b.mode", "verify-only");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "target.b.follow.group is required when target.b.mode is verify-only");
  }

  @Test
  void aFollowedGroupOnAnApplyVerifyTargetIsRefused() {
    Map<String, String> values = twoTargets();
    values.put("target.a.follow.group", "connect-jdbc-sink-a");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target.a.follow.group is set but target.a.mode is apply-verify");
  }

  @Test
  void anUnknownModeIsRefusedNamingTheKey() {
    Map<String, String> values = twoTargets();
    values.put("target.a.mode", "verify");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target.a.mode")
        .hasMessageContaining("must be apply-verify or verify-only, was 'verify'");
  }

  @Test
  void aStallTimeoutBelowOneSecondIsRefused() {
    Map<String, String> values = twoTargets();
    values.put("follow.stall.timeout.ms", "999");

    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("follow.stall.timeout.ms");
  }

  @Test
  void aStallTimeoutOfHalfTheMaxPollIntervalOrMoreIsRefused() {
    // Given a verify-only target whose stream thread could wait longer than Streams lets it
    Map<String, String> values = twoTargets();
    values.put("target.b.mode", "verify-only");
    values.put("target.b.follow.group", "sink-b");
    values.put("streams.max.poll.interval.ms", "100000");
    values.put("statement.timeout.ms", "5000");
    values.put("retry.timeout.ms", "15000");
    values.put("follow.stall.timeout.ms", "50000");
    TargetsConfig config = TargetsConfig.of(values);

    // When, Then
    assertThatThrownBy(() -> config.verifierSettings("b"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "follow.stall.timeout.ms must be less than half of the verifier's"
                + " max.poll.interval.ms (100000), was 50000");
    values.put("follow.stall.timeout.ms", "49999");
    assertThat(TargetsConfig.of(values).verifierSettings("b").followWaitLimit())
        .isEqualTo(Duration.ofSeconds(45));
  }

  @Test
  void theDefaultStallTimeoutIsTooLongForAShortMaxPollIntervalOnAVerifyOnlyTargetOnly() {
    // Given a main consumer polled at least every minute
    Map<String, String> values = twoTargets();
    values.put("streams.main.consumer.max.poll.interval.ms", "60000");
    values.put("statement.timeout.ms", "5000");
    values.put("retry.timeout.ms", "10000");
    values.put("target.b.mode", "verify-only");
    values.put("target.b.follow.group", "sink-b");
    TargetsConfig config = TargetsConfig.of(values);

    // When, Then: target a never waits, target b would wait up to the default 60 s
    assertThat(config.verifierSettings("a").maxPollInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThatThrownBy(() -> config.verifierSettings("b"))
        .hasMessageContaining("follow.stall.timeout.ms must be less than half");
  }

  @Test
  void targetTimeoutsAreReadAndTheirSumIsKeptBelowHalfTheMaxPollInterval() {
    // Given target timeouts in the file
    Map<String, String> values = twoTargets();
    values.put("statement.timeout.ms", "2000");
    values.put("retry.timeout.ms", "9000");

    // Then every target's verifier gets them
    VerifierSettings a = TargetsConfig.of(values).verifierSettings("a");
    assertThat(a.retries().statementTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(a.retries().retryTimeout()).isEqualTo(Duration.ofSeconds(9));

    // And a retry longer than the stream thread may wait is refused, naming both settings
    values.put("streams.max.poll.interval.ms", "20000");
    assertThatThrownBy(() -> TargetsConfig.of(values).verifierSettings("a"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "target a: retry.timeout.ms (9000) plus statement.timeout.ms (2000) must be less than"
                + " half of the verifier's max.poll.interval.ms (20000)");
  }

  /** Both targets verify-only, written by sink connectors. */
  private static Map<String, String> verifyOnly(Map<String, String> values) {
    for (String t : new String[] {"a", "b"}) {
      values.put("target." + t + ".mode", "verify-only");
      values.put("target." + t + ".follow.group", "connect-" + t + "-sink");
    }
    return values;
  }

  @Test
  void withoutAConnectorThereIsNoStockPipeline() {
    assertThat(TargetsConfig.of(twoTargets()).connectPipeline()).isEmpty();
  }

  @Test
  void aStockPipelineTakesItsConnectorTopicsAndConvertersFromTheFile() {
    Map<String, String> values = verifyOnly(twoTargets());
    values.put("connect.connector", "shop-source");
    values.put("connect.value.converter", "io.apicurio.registry.utils.converter.AvroConverter");
    values.put(
        "connect.value.converter.apicurio.registry.url", "http://registry:8080/apis/registry/v2");
    values.put("connect.key.converter.schemas.enable", "true");

    ConnectPipeline pipeline = TargetsConfig.of(values).connectPipeline().orElseThrow();

    assertThat(pipeline.connector()).isEqualTo("shop-source");
    assertThat(pipeline.offsetsTopic()).isEqualTo("connect-offsets");
    assertThat(pipeline.notesTopic()).isEqualTo("shop.repi.validatetables");
    assertThat(pipeline.converters())
        .containsOnly(
            Map.entry("key.converter", "org.apache.kafka.connect.json.JsonConverter"),
            Map.entry("key.converter.schemas.enable", "true"),
            Map.entry("value.converter", "io.apicurio.registry.utils.converter.AvroConverter"),
            Map.entry(
                "value.converter.apicurio.registry.url", "http://registry:8080/apis/registry/v2"));
  }

  @Test
  void aStockPipelinesTopicsCanBeNamed() {
    Map<String, String> values = verifyOnly(twoTargets());
    values.put("connect.connector", "shop-source");
    values.put("connect.offsets.topic", "cluster-offsets");
    values.put("connect.notes.topic", "cdc.repi.validatetables");

    ConnectPipeline pipeline = TargetsConfig.of(values).connectPipeline().orElseThrow();

    assertThat(pipeline.offsetsTopic()).isEqualTo("cluster-offsets");
    assertThat(pipeline.notesTopic()).isEqualTo("cdc.repi.validatetables");
  }

  @Test
  void anUnknownConnectKeyIsRefusedWithItsName() {
    Map<String, String> values = twoTargets();
    values.put("connect.conector", "shop-source");
    assertThatThrownBy(() -> TargetsConfig.of(values)).hasMessageContaining("connect.conector");
  }

  @Test
  void aStockPipelinesTargetsMustBeVerifyOnly() {
    Map<String, String> values = twoTargets();
    values.put("connect.connector", "shop-source");
    values.put("target.a.mode", "verify-only");
    values.put("target.a.follow.group", "connect-a-sink");
    assertThatThrownBy(() -> TargetsConfig.of(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target.b.mode is apply-verify but connect.connector is set")
        .hasMessageContaining("target.b.follow.group=connect-<sink connector name>");
  }
}
