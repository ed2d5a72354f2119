package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/**
 * A verifier never jumps silently over records its target did not apply: when it resumes past its
 * target's checkpoint (here: the consumer group's offsets moved to the end of the topic while it
 * was stopped), it stops with RESYNC_NEEDED naming the topic, partition and offsets.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class VerifierResumeIT {
  private static final TableName ITEMS = new TableName("public", "items");

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void offsetsCommittedPastTheCheckpointStopTheVerifierWithResyncNeeded(EmbeddedEnvironment env)
      throws Exception {
    // Given a verifier that applied 300 rows, then stopped
    CaptureFixture source = new CaptureFixture(env);
    source.sql("CREATE TABLE items (id int PRIMARY KEY, name text)");
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("resume_" + source.prefix);
    try (Connection c = target.connect(database);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE items (id int PRIMARY KEY, name text)");
    }
    String topic = TableTopics.topicName(source.prefix, ITEMS);
    VerifierSettings settings =
        VerifierSettings.builder("resume")
            .applicationId("verify-" + source.prefix)
            .bootstrapServers(env.kafka().bootstrapServers())
            .registryUrl(env.registry().confluentApiUrl())
            .topicPrefix(source.prefix)
            .table(ITEMS)
            .target(target.jdbcUrl(database), target.user(), target.password())
            .streamsProperty("commit.interval.ms", "200")
            .streamsProperty("session.timeout.ms", "6000")
            .build();
    try (CaptureFixture.Running capture = source.start("public.items")) {
      source.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 300) g");
      try (VerifierApp app =
          VerifierApp.start(settings, CommitAudit.of(settings, target, database, ITEMS))) {
        await("300 rows applied")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  app.requireHealthy();
                  assertThat(endOffsets(env, topic).values().stream().mapToLong(v -> v).sum())
                      .isEqualTo(300);
                  assertThat(checkpoints(settings, target, database, topic))
                      .isEqualTo(minusOne(endOffsets(env, topic)));
                });
      }
      Map<Integer, Long> applied = checkpoints(settings, target, database, topic);

      // And 200 more changes on the topic, while its consumer group was moved to the topic's end
      source.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(301, 500) g");
      await("500 changes on the topic")
          .atMost(Duration.ofSeconds(60))
          .until(() -> endOffsets(env, topic).values().stream().mapToLong(v -> v).sum() == 500);
      Map<Integer, Long> end = endOffsets(env, topic);
      Map<TopicPartition, OffsetAndMetadata> skip = new HashMap<>();
      end.forEach(
          (p, offset) -> skip.put(new TopicPartition(topic, p), new OffsetAndMetadata(offset)));
      try (Admin admin = admin(env)) {
        // accepted once the stopped member's session expired and the group is empty
        await("group offsets moved")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .untilAsserted(
                () -> admin.alterConsumerGroupOffsets(settings.applicationId(), skip).all().get());
      }
      assertThat(end)
          .allSatisfy((p, offset) -> assertThat(offset).isGreaterThan(applied.get(p) + 1));

      // When the verifier starts again
      ResultsTopic.ensure(settings);
      VerifierApp restarted =
          VerifierApp.startUnchecked(settings, CommitAudit.of(settings, target, database, ITEMS));
      try {
        // And the stream resumes: a change in every partition (its first record is checked)
        source.sql("UPDATE items SET name = 'resumed' WHERE id <= 30");

        // Then it stops with RESYNC_NEEDED naming the topic, partition and offsets
        await("the verifier refuses the gap")
            .atMost(Duration.ofSeconds(60))
            .until(() -> restarted.failure.get() != null);
        assertThat(restarted.failure.get())
            .hasStackTraceContaining("RESYNC_NEEDED: topic " + topic + ", partition ")
            .hasStackTraceContaining(
                "were never applied but consumer group " + settings.applicationId());
        io.cdccompare.schemas.avro.Alert alert =
            PoisonRecordIT.firstAlert(env, StopAlerts.topic(settings));
        assertThat(alert.getCode()).isEqualTo(io.cdccompare.schemas.avro.AlertCode.RESYNC_NEEDED);
        assertThat(alert.getTopic()).isEqualTo(topic);
        assertThat(alert.getPartition()).isNotNull();
        assertThat(alert.getMessage()).contains("RESYNC_NEEDED: topic " + topic);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    restarted.streams.state() == KafkaStreams.State.ERROR
                        || restarted.streams.state() == KafkaStreams.State.NOT_RUNNING
                        || restarted.streams.state() == KafkaStreams.State.PENDING_ERROR);
      } finally {
        restarted.close();
      }

      // And nothing past the checkpoints was applied
      assertThat(checkpoints(settings, target, database, topic)).isEqualTo(applied);
      try (Connection c = target.connect(database);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(300);
      }
      try (Connection c = target.connect(database);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM items WHERE name = 'resumed'")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
    }
  }

  private static Admin admin(EmbeddedEnvironment env) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()));
  }

  private static Map<Integer, Long> endOffsets(EmbeddedEnvironment env, String topic)
      throws Exception {
    try (Admin admin = admin(env)) {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < 3; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
      }
      Map<Integer, Long> end = new TreeMap<>();
      admin
          .listOffsets(latest)
          .all()
          .get()
          .forEach((tp, info) -> end.put(tp.partition(), info.offset()));
      return end;
    }
  }

  private static Map<Integer, Long> minusOne(Map<Integer, Long> end) {
    Map<Integer, Long> out = new TreeMap<>();
    end.forEach((p, offset) -> out.put(p, offset - 1));
    return out;
  }

  private static Map<Integer, Long> checkpoints(
      VerifierSettings settings, JdbcServer target, String database, String topic)
      throws SQLException {
    Map<Integer, Long> out = new TreeMap<>();
    try (Connection c = target.connect(database)) {
      CheckpointStore store = new CheckpointStore(c, new PostgresDialect(), null);
      for (int p : List.of(0, 1, 2)) {
        out.put(
            p, store.find(settings.applicationId(), topic, p).map(Checkpoint::offset).orElse(-1L));
      }
    }
    return out;
  }
}
