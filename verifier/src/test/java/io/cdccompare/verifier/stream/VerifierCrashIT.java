package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.testsupport.ChildJvm;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The verifier is killed with {@code kill -9} after its target (PostgreSQL, then MariaDB) committed
 * changes, verdicts and checkpoints that Kafka Streams had not committed the offsets of yet (commit
 * interval 10 minutes, batches of 25). The restarted verifier reads those records again: it applies
 * none of them twice, stores no verdict twice and re-emits the stored verdicts unchanged.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class VerifierCrashIT {
  static final TableName COUNTERS = new TableName("public", "counters");
  private static final int INSERTED = 1_200;
  private static final int CHUNK = 400;
  static final int PARTITIONS = 3;
  static final String TABLE_DDL =
      "CREATE TABLE counters (id int PRIMARY KEY, hits int NOT NULL, note text)";

  @ParameterizedTest(name = "{0} target")
  @EnumSource(CrashTarget.Kind.class)
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void killedBetweenTargetCommitAndOffsetCommitReplaysWithoutApplyingOrJudgingTwice(
      CrashTarget.Kind kind, EmbeddedEnvironment env) throws Exception {
    // Given a source table and its empty copy on a target whose trigger logs every row the apply
    // writes
    CaptureFixture source = new CaptureFixture(env);
    source.sql(TABLE_DDL);
    CrashTarget target = kind.create(env, "crash_" + source.prefix);
    String topic = TableTopics.topicName(source.prefix, COUNTERS);
    Path dir = Files.createDirectories(Path.of("target", "verifier-crash-" + source.prefix));
    Properties base = new Properties();
    base.setProperty("target", "crash");
    base.setProperty("applicationId", "verify-" + source.prefix);
    base.setProperty("bootstrapServers", env.kafka().bootstrapServers());
    base.setProperty("registryUrl", env.registry().confluentApiUrl());
    base.setProperty("topicPrefix", source.prefix);
    base.setProperty("table", "public.counters");
    base.setProperty("jdbcUrl", target.jdbcUrl());
    base.setProperty("user", target.server().user());
    base.setProperty("password", target.server().password());
    base.setProperty("targetTable", target.table().schema() + "." + target.table().table());
    if (target.bookkeeping() != null) {
      base.setProperty("bookkeepingSchema", target.bookkeeping());
    }
    base.setProperty("applyBatchSize", "25");
    base.setProperty("applyMaxDelayMs", "100");
    base.setProperty("streams.session.timeout.ms", "6000");
    base.setProperty("streams.commit.interval.ms", "200");
    VerifierSettings settings = VerifierProcess.settings(base);
    String app = settings.applicationId();

    try (CaptureFixture.Running capture = source.start("public.counters");
        ResultsReader results =
            new ResultsReader(
                env.kafka().bootstrapServers(),
                env.registry().confluentApiUrl(),
                settings.tables().resultsTopic())) {
      // And 1 200 inserted rows, 600 updates, applied by an in-process verifier that stops cleanly
      // (so its consumer group commits offsets in the middle of the topic)
      source.sql(
          "INSERT INTO counters SELECT g, 0, 'new' FROM generate_series(1, " + INSERTED + ") g");
      for (int round = 1; round <= 2; round++) {
        source.sql("UPDATE counters SET hits = hits + 1 WHERE id % 4 = 0");
      }
      int changes = INSERTED + 2 * 300;
      try (VerifierApp first = VerifierApp.start(settings, audit(settings, target))) {
        awaitCaughtUp(env, topic, target, app, changes, first::requireHealthy);
      }
      Map<Integer, Long> cleanCommit = committedOffsets(env, app, topic);
      assertThat(cleanCommit).isEqualTo(endOffsets(env, topic));

      // When a verifier in a child JVM commits Kafka offsets only every 10 minutes but writes its
      // target every 25 records or 100 ms
      Properties childConfig = new Properties();
      childConfig.putAll(base);
      childConfig.setProperty("streams.commit.interval.ms", "600000");
      childConfig.setProperty("stateDir", dir.resolve("state-child").toString());
      Path config = dir.resolve("verifier.properties");
      try (Writer out = Files.newBufferedWriter(config)) {
        childConfig.store(out, "VerifierCrashIT child");
      }
      Process child = start(config, dir.resolve("child.log"));
      try {
        // And it applies 2 000 updates (5 per row of every third row, a counter each time) and
        // 24 deletes
        for (int round = 1; round <= 5; round++) {
          source.sql(
              "UPDATE counters SET hits = hits + 1, note = 'round " + round + "' WHERE id % 3 = 0");
        }
        source.sql("DELETE FROM counters WHERE id % 50 = 0");
        changes += 5 * 400 + 24;
        long expectedRecords = changes + 24L; // a delete is followed by a tombstone
        awaitCaughtUp(
            env,
            topic,
            target,
            app,
            expectedRecords,
            () -> assertThat(child.isAlive()).as("child verifier alive").isTrue());

        // And a full compare's CLOSE markers are verified, their verdicts stored in the target
        Map<String, String> task = source.task("full", "public.counters");
        task.put("chunk", Integer.toString(CHUNK));
        task.put("deep", "100");
        CompareRun.Summary run = new CompareRun(CompareConfig.of(task), false).run();
        String runId = run.tables().get(0).runId();
        long chunks = run.tables().get(0).chunks();
        assertThat(chunks).isEqualTo(3);
        int cells = (int) chunks * PARTITIONS;
        await("verdicts stored by the child")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(200))
            .untilAsserted(
                () -> {
                  assertThat(child.isAlive()).as("child verifier alive").isTrue();
                  assertThat(target.verdicts(app, runId)).hasSize(cells);
                  assertThat(target.checkpoints(app, topic))
                      .isEqualTo(minusOne(endOffsets(env, topic)));
                });
        Map<String, List<ChunkResult>> emitted = new TreeMap<>();
        await("results emitted by the child")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  collect(results, runId, emitted);
                  assertThat(emitted).hasSize(cells);
                });
        Map<Integer, Long> checkpoint = target.checkpoints(app, topic);
        Map<Integer, Long> committed = committedOffsets(env, app, topic);
        long written = target.writes();

        // Then, at the kill, the target holds everything while Kafka's offsets stayed behind
        assertThat(committed).isEqualTo(cleanCommit);
        assertThat(committed)
            .allSatisfy(
                (p, offset) ->
                    assertThat(offset)
                        .as(
                            "partition %d committed %d, checkpoint %d",
                            p, offset, checkpoint.get(p))
                        .isLessThanOrEqualTo(checkpoint.get(p)));
        assertThat(written).as("each change written once so far").isEqualTo(changes);
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(child.exitValue()).isEqualTo(137);
        assertThat(committedOffsets(env, app, topic)).isEqualTo(committed);

        // When the verifier restarts (in process) and catches up
        ReplayWatch watch = new ReplayWatch(audit(settings, target), topic);
        Properties props = VerifyTopologyFactory.streamsProperties(settings);
        Path state = Files.createTempDirectory("verify-crash");
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        KafkaStreams restarted =
            new KafkaStreams(VerifyTopologyFactory.build(settings), props, watch);
        restarted.setUncaughtExceptionHandler(
            e -> {
              failure.compareAndSet(null, e);
              return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
        restarted.start();
        try {
          await("restarted verifier re-read up to the checkpoints")
              .atMost(Duration.ofSeconds(120))
              .pollInterval(Duration.ofMillis(200))
              .untilAsserted(
                  () -> {
                    assertThat(failure.get()).as("restarted verifier failure").isNull();
                    collect(results, runId, emitted);
                    assertThat(emitted.values().stream().mapToInt(List::size).sum())
                        .isEqualTo(2 * cells);
                    assertThat(watch.last()).isEqualTo(minusOne(endOffsets(env, topic)));
                    assertThat(committedOffsets(env, app, topic)).isEqualTo(endOffsets(env, topic));
                  });

          // Then the replay really happened: the records from the committed offsets on, up to
          // the checkpoints, were consumed again
          assertThat(watch.first()).isEqualTo(committed);
          // And no change was applied twice: the trigger saw no write during the replay, and the
          // target equals the source, counters and notes included
          assertThat(target.writes()).isEqualTo(written);
          assertThat(target.checkpoints(app, topic)).isEqualTo(checkpoint);
          assertThat(rows(target.connect())).isEqualTo(rows(source.connect()));
          // And each (chunk, partition) has exactly one stored verdict
          assertThat(target.verdicts(app, runId)).hasSize(cells).doesNotHaveDuplicates();
          // And its result was re-emitted unchanged: two identical verdicts per key, all matched
          assertThat(emitted)
              .allSatisfy(
                  (key, list) -> {
                    assertThat(list).as(key).hasSize(2);
                    assertThat(list.get(1)).as(key).isEqualTo(list.get(0));
                    assertThat(list.get(0).getState()).as(key).isEqualTo(ChunkState.VERIFIED);
                  });
          long matched =
              emitted.values().stream().mapToLong(l -> l.get(0).getCounts().getMatched()).sum();
          assertThat(matched).isEqualTo(INSERTED - 24);
          assertThat(watch.audit.violations()).isEmpty();
        } finally {
          restarted.close(Duration.ofSeconds(30));
          watch.audit.close();
          try (var paths = Files.walk(state)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
          }
        }
      } finally {
        if (child.isAlive()) {
          child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static Process start(Path config, Path log) throws Exception {
    return ChildJvm.of(VerifierProcess.class).start(log, config.toString());
  }

  private static void awaitCaughtUp(
      EmbeddedEnvironment env,
      String topic,
      CrashTarget target,
      String app,
      long records,
      Runnable healthy) {
    await("target caught up with " + records + " records")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              healthy.run();
              Map<Integer, Long> end = endOffsets(env, topic);
              assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(records);
              assertThat(target.checkpoints(app, topic)).isEqualTo(minusOne(end));
            });
  }

  private static void collect(
      ResultsReader results, String runId, Map<String, List<ChunkResult>> into) {
    into.clear();
    for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
      into.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
    }
  }

  private static CommitAudit audit(VerifierSettings settings, CrashTarget target) {
    return new CommitAudit(
        settings.applicationId(),
        Set.of(settings.tables().topicOf(COUNTERS)),
        () -> {
          try {
            return target.connect();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        },
        target.jdbcUrl(),
        target.bookkeeping());
  }

  private static Admin admin(EmbeddedEnvironment env) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()));
  }

  private static Map<Integer, Long> endOffsets(EmbeddedEnvironment env, String topic)
      throws Exception {
    try (Admin admin = admin(env)) {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
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

  /** The consumer group's committed offsets of the table topic (-1 where none). */
  private static Map<Integer, Long> committedOffsets(
      EmbeddedEnvironment env, String group, String topic) throws Exception {
    try (Admin admin = admin(env)) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<Integer, Long> out = new TreeMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        OffsetAndMetadata o = offsets.get(new TopicPartition(topic, p));
        out.put(p, o == null ? -1L : o.offset());
      }
      return out;
    }
  }

  private static Map<Integer, Long> minusOne(Map<Integer, Long> end) {
    Map<Integer, Long> out = new TreeMap<>();
    end.forEach((p, offset) -> out.put(p, offset - 1));
    return out;
  }

  /** Every row of {@code counters}, in key order, as "id hits note"; closes the connection. */
  private static List<String> rows(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    try (connection;
        Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, hits, note FROM counters ORDER BY id")) {
      while (rs.next()) {
        out.add(rs.getInt(1) + " " + rs.getInt(2) + " " + rs.getString(3));
      }
    }
    return out;
  }
}
