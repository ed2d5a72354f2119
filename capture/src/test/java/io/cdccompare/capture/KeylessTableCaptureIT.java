package io.cdccompare.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.source.TopicLayout;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * A table without a primary key is captured by the key its configuration names ({@code
 * table.<t>.key.columns}): the NOT NULL columns of a unique index that the table's replica identity
 * sends with every update and delete. Anything less is refused before anything changes, naming the
 * statement that fixes it.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class KeylessTableCaptureIT {
  private static final KeyCodec KEYS =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));

  @Test
  void aKeylessTableIsKeyedByItsConfiguredUniqueKeyDeletesIncluded(EmbeddedEnvironment env)
      throws Exception {
    // Given a table without a primary key, with a unique index that is its replica identity
    CaptureFixture f = new CaptureFixture(env);
    f.sql(
        "CREATE TABLE events (region int NOT NULL, code varchar(10) NOT NULL, v text)",
        "CREATE UNIQUE INDEX events_key ON events (region, code)",
        "ALTER TABLE events REPLICA IDENTITY USING INDEX events_key");
    Map<String, String> config = new HashMap<>(f.captureConfig("public.events"));
    config.put("table.public.events.key.columns", "region, code");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "events"));
    try (CaptureFixture.Running capture = f.start(config)) {

      // When rows are inserted, updated and deleted
      f.sql(
          "INSERT INTO events VALUES (1, 'a', 'one'), (2, 'b', 'two')",
          "UPDATE events SET v = 'uno' WHERE region = 1",
          "DELETE FROM events WHERE region = 2");

      // Then every change, the delete and its tombstone too, is keyed by (region, code)
      List<ConsumerRecord<byte[], byte[]>> records = f.read(topic, r -> r.size() >= 5);
      assertThat(records.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)))
          .containsExactlyInAnyOrder(
              KEYS.encode(List.of(1, "a")),
              KEYS.encode(List.of(2, "b")),
              KEYS.encode(List.of(1, "a")),
              KEYS.encode(List.of(2, "b")),
              KEYS.encode(List.of(2, "b")));
      assertThat(records.stream().map(CaptureIT::describe))
          .containsExactlyInAnyOrder("c:one", "c:two", "u:uno", "d:-", "tombstone");
    }
  }

  @Test
  void aKeylessTableWithoutAConfiguredKeyIsRefusedNamingTheSetting(EmbeddedEnvironment env)
      throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE loose (a int NOT NULL, v text)");
    Map<String, String> config = f.captureConfig("public.loose");

    assertRefused(f, config, "has no primary key", "table.public.loose.key.columns");
  }

  @Test
  void aNullableKeyColumnIsRefused(EmbeddedEnvironment env) throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE maybe (a int, v text)", "CREATE UNIQUE INDEX maybe_a ON maybe (a)");
    Map<String, String> config = new HashMap<>(f.captureConfig("public.maybe"));
    config.put("table.public.maybe.key.columns", "a");

    assertRefused(f, config, "key column a of table public.maybe may be NULL");
  }

  @Test
  void aKeyWithoutAUniqueIndexIsRefused(EmbeddedEnvironment env) throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE dupes (a int NOT NULL, v text)", "CREATE INDEX dupes_a ON dupes (a)");
    Map<String, String> config = new HashMap<>(f.captureConfig("public.dupes"));
    config.put("table.public.dupes.key.columns", "a");

    assertRefused(f, config, "has no unique index on exactly [a]");
  }

  @Test
  void aKeyTheReplicaIdentityDoesNotSendIsRefusedNamingTheFix(EmbeddedEnvironment env)
      throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql(
        "CREATE TABLE quiet (a int NOT NULL, v text)", "CREATE UNIQUE INDEX quiet_a ON quiet (a)");
    Map<String, String> config = new HashMap<>(f.captureConfig("public.quiet"));
    config.put("table.public.quiet.key.columns", "a");

    assertRefused(
        f,
        config,
        "does not send its key with updates and deletes",
        "ALTER TABLE \"public\".\"quiet\" REPLICA IDENTITY USING INDEX \"quiet_a\"");
  }

  @Test
  void aKeyOtherThanThePrimaryKeyIsRefused(EmbeddedEnvironment env) throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE keyed (id int PRIMARY KEY, a int NOT NULL UNIQUE)");
    Map<String, String> config = new HashMap<>(f.captureConfig("public.keyed"));
    config.put("table.public.keyed.key.columns", "a");

    assertRefused(f, config, "has the primary key [id]", "may only name it");
  }

  @Test
  void perTableSettingsOtherThanTheKeyOrOfAnotherTableAreUnknownKeys(EmbeddedEnvironment env) {
    CaptureFixture f = new CaptureFixture(env);
    Map<String, String> other = new HashMap<>(f.captureConfig("public.a"));
    other.put("table.public.a.chunk", "10");
    assertThatThrownBy(() -> CaptureConfig.of(other))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table.public.a.chunk");

    Map<String, String> stray = new HashMap<>(f.captureConfig("public.a"));
    stray.put("table.public.b.key.columns", "id");
    assertThatThrownBy(() -> CaptureConfig.of(stray))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table.public.b.key.columns")
        .hasMessageContaining("not in tables");

    Map<String, String> odd = new HashMap<>(f.captureConfig("public.a"));
    odd.put("table.public.a.key.columns", "id; DROP TABLE a");
    assertThatThrownBy(() -> CaptureConfig.of(odd))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table.public.a.key.columns");
  }

  /** The capture refuses to start with these words, and creates no slot. */
  private static void assertRefused(CaptureFixture f, Map<String, String> config, String... words)
      throws Exception {
    Capture capture = new Capture(CaptureConfig.of(config));
    var refusal = assertThatThrownBy(capture::run);
    for (String w : words) {
      refusal.hasMessageContaining(w);
    }
    String slot = CaptureConfig.of(config).slotName();
    try (var c = f.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
      rs.next();
      assertThat(rs.getInt(1)).as("slot %s", slot).isZero();
    }
  }
}
