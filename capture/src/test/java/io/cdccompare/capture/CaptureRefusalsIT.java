package io.cdccompare.capture;

import static io.cdccompare.capture.CaptureFixture.isMarker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.source.TopicLayout;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Positions that cannot be continued and bad input stop the capture loudly, changing nothing. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CaptureRefusalsIT {

  @Test
  void aSlotDroppedWhileStoppedIsResyncNeededWithAnAlert(EmbeddedEnvironment env) throws Exception {
    // Given: a capture that streamed and stored a position, then stopped
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE items (id int PRIMARY KEY, v text)");
    Map<String, String> config = f.captureConfig("public.items");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "items"));
    try (CaptureFixture.Running capture = f.start(config)) {
      f.sql("INSERT INTO items VALUES (1, 'a'), (2, 'b')");
      assertThat(f.read(topic, r -> r.size() >= 2)).hasSize(2);
    }
    String slot = CaptureConfig.of(config).slotName();

    // When: the slot is dropped, then the capture starts again
    f.sql("SELECT pg_drop_replication_slot('" + slot + "')");
    Capture restarted = new Capture(CaptureConfig.of(config));

    // Then
    assertThatThrownBy(restarted::run)
        .isInstanceOf(CdcCompareException.class)
        .hasMessageContaining("RESYNC_NEEDED")
        .hasMessageContaining(slot)
        .satisfies(
            e -> assertThat(((CdcCompareException) e).code()).isEqualTo(ErrorCode.RESYNC_NEEDED));
    List<ConsumerRecord<byte[], byte[]>> alerts =
        f.read(CaptureConfig.of(config).alertsTopic(), r -> !r.isEmpty());
    assertThat(alerts).hasSize(1);
    try (SpecificAvroDeserializer<Alert> reader = new SpecificAvroDeserializer<>()) {
      reader.configure(
          Map.of(
              "schema.registry.url",
              env.registry().confluentApiUrl(),
              SpecificAvroDeserializer.VALUE_TYPE,
              Alert.class.getName()),
          false);
      Alert alert =
          reader.deserialize(CaptureConfig.of(config).alertsTopic(), alerts.get(0).value());
      assertThat(alert.getCode()).isEqualTo(AlertCode.RESYNC_NEEDED);
      assertThat(alert.getOrigin()).isEqualTo("capture");
      assertThat(alert.getMessage()).contains(slot);
    }
    assertThat(slotExists(f, slot)).as("no new slot was created silently").isFalse();
  }

  private static boolean slotExists(CaptureFixture f, String slot) throws Exception {
    try (var c = f.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
      rs.next();
      return rs.getInt(1) > 0;
    }
  }

  @Test
  void aTopicWithAnotherPartitionCountIsRefusedNamingIt(EmbeddedEnvironment env) throws Exception {
    // Given: the topic exists with 2 partitions, the capture is configured with 3
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE parts (id int PRIMARY KEY)");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "parts"));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }

    // When / Then
    Capture capture = new Capture(CaptureConfig.of(f.captureConfig("public.parts")));
    assertThatThrownBy(capture::run)
        .hasMessageContaining(topic)
        .hasMessageContaining("2 partitions")
        .hasMessageContaining("refusing to run");
    assertThat(slotExists(f, CaptureConfig.of(f.captureConfig("public.parts")).slotName()))
        .isFalse();
  }

  @Test
  void oddIdentifiersAreCapturedExactlyAndCannotWidenTheCapture(EmbeddedEnvironment env)
      throws Exception {
    // Given: a table whose name has a space, a dot, single quotes, regex characters and
    // capitals, and a decoy whose name would match if the name were read as a regex
    CaptureFixture f = new CaptureFixture(env);
    f.sql(
        "CREATE SCHEMA \"My Schema\"",
        "CREATE TABLE \"My Schema\".\"Odd.Name 'q' (a|b)*\" (\"Id\" int PRIMARY KEY, v text)",
        "CREATE TABLE \"My Schema\".\"OddXName 'q' b\" (\"Id\" int PRIMARY KEY, v text)");
    TableName odd = new TableName("My Schema", "Odd.Name 'q' (a|b)*");
    String topic = TopicLayout.topicName(f.prefix, odd);
    try (CaptureFixture.Running capture = f.start(f.captureConfig(odd.toString()))) {

      // When
      f.sql(
          "INSERT INTO \"My Schema\".\"OddXName 'q' b\" VALUES (1, 'decoy')",
          "INSERT INTO \"My Schema\".\"Odd.Name 'q' (a|b)*\" VALUES (1, 'real')",
          "INSERT INTO repi.validatetables (task, table_schema, table_name, run_id, chunk, phase)"
              + " VALUES ('t', 'My Schema', 'Odd.Name ''q'' (a|b)*', 'r', 0, 'OPEN')");

      // Then: the real row and the marker arrive, the decoy nowhere
      List<ConsumerRecord<byte[], byte[]>> records =
          f.read(topic, r -> CaptureFixture.count(r, CaptureFixture::isMarker) >= 3);
      assertThat(records.stream().filter(r -> !isMarker(r)).map(CaptureIT::describe))
          .containsExactly("c:real");
      try (Admin admin =
          Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
        Set<String> topics = admin.listTopics().names().get();
        assertThat(topics.stream().filter(t -> t.startsWith(f.prefix + ".")))
            .containsExactlyInAnyOrder(
                topic,
                f.prefix + ".capture.offsets",
                f.prefix + ".compare.alerts",
                f.prefix + ".capture.notices");
      }
    }
  }

  @Test
  void aNameWithADoubleQuoteIsRefusedBeforeAnythingChanges(EmbeddedEnvironment env)
      throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE \"say \"\"hi\"\"\" (id int PRIMARY KEY)");
    Map<String, String> config = f.captureConfig("public.\"say \"\"hi\"\"\"");
    Capture capture = new Capture(CaptureConfig.of(config));
    assertThatThrownBy(capture::run)
        .hasMessageContaining("double quote")
        .hasMessageContaining("say \"\"hi\"\"");
    assertThat(slotExists(f, CaptureConfig.of(config).slotName())).isFalse();
  }

  @Test
  void anInjectionAttemptInATableNameIsATableThatDoesNotExist(EmbeddedEnvironment env)
      throws Exception {
    // Given
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE victim (id int PRIMARY KEY)");
    String attack = "public.\"victim); DROP TABLE victim; --\"";

    // When / Then
    Capture capture = new Capture(CaptureConfig.of(f.captureConfig(attack)));
    assertThatThrownBy(capture::run)
        .hasMessageContaining("does not exist")
        .hasMessageContaining("victim); DROP TABLE victim; --");
    try (var c = f.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM victim")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
  }

  @Test
  void unknownAndInvalidSettingsAreRefusedWithTheirNames(EmbeddedEnvironment env) {
    CaptureFixture f = new CaptureFixture(env);
    Map<String, String> unknown = new java.util.HashMap<>(f.captureConfig("public.a"));
    unknown.put("topic.partitons", "4");
    assertThatThrownBy(() -> CaptureConfig.of(unknown))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topic.partitons");
    Map<String, String> invalid = new java.util.HashMap<>(f.captureConfig("public.a"));
    invalid.put("topic.partitions", "0");
    assertThatThrownBy(() -> CaptureConfig.of(invalid))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topic.partitions");
    Map<String, String> noSchema = new java.util.HashMap<>(f.captureConfig("customers"));
    assertThatThrownBy(() -> CaptureConfig.of(noSchema))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tables")
        .hasMessageContaining("schema.table");
  }
}
