package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare run --kind incremental} end to end on real servers: after a full run, only the
 * keys changed on the source since are compared, on a PostgreSQL and a MariaDB target; a difference
 * made on a target among those keys is found in its class, one elsewhere is not looked at; and a
 * table topic that lost the changes stops the run with exit 4 naming the partitions.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class IncrementalCompareIT {
  private static final int ROWS = ComparePipeline.ROWS;

  private final Cli cli = new Cli();

  @Test
  void anIncrementalRunComparesTheChangedKeysOnlyAndFindsTheirDifferences(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a table replicated to both targets and a full run that found them in sync
    ComparePipeline p = ComparePipeline.create(env, dir, "incr", Map.of("chunk", "500"));
    CaptureFixture f = p.source();
    try (CaptureFixture.Running capture = f.start("public.items");
        RunningVerifier pg = p.verifier("pg", true);
        RunningVerifier maria = p.verifier("maria", false)) {
      f.sql("INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
      ComparePipeline.awaitRows(p.pgServer(), p.pgDb(), ROWS);
      ComparePipeline.awaitRows(p.mariaServer(), p.mariaDb(), ROWS);
      String taskFile = p.taskFile().toString();
      assertThat(cli.run("compare", "run", "-c", taskFile, "--wait", "--wait-timeout", "180"))
          .as(cli.out() + cli.err())
          .isZero();
      String fullRun = ComparePipeline.fullRunId(p.taskFile(), "incr");

      // and since then 10 updates, 5 inserts and 5 deletes on the source, all applied
      f.sql(
          "UPDATE items SET n = n + 1 WHERE id BETWEEN 10 AND 19",
          "INSERT INTO items SELECT g, 'new ' || g, g FROM generate_series(3001, 3005) g",
          "DELETE FROM items WHERE id BETWEEN 20 AND 24");
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> has(p, "pg", 3005) && has(p, "maria", 3005) && !has(p, "maria", 24));
      // and differences made on the targets: on pg key 10 (changed on the source) and key 500
      // (not changed), and deleted key 20 back; on maria inserted key 3001 removed
      ComparePipeline.sql(
          p.pgServer(),
          p.pgDb(),
          "UPDATE items SET name = 'drift' WHERE id IN (10, 500)",
          "INSERT INTO items VALUES (20, 'item 20', 20)");
      ComparePipeline.sql(p.mariaServer(), p.mariaDb(), "DELETE FROM items WHERE id = 3001");

      // When the task runs incrementally
      cli.clearOut();
      int exit =
          cli.run(
              "compare",
              "run",
              "-c",
              taskFile,
              "--kind",
              "incremental",
              "--wait",
              "--wait-timeout",
              "180");

      // Then only the 20 changed keys were compared, and the differences among them found
      String text = cli.out();
      assertThat(exit).as(text + cli.err()).isEqualTo(ExitCode.DIFFERENCES.code());
      assertThat(text)
          .containsPattern(
              "public\\.items: run \\S+: 20 changed keys in 1 chunks \\(15 on the source, 5"
                  + " deleted\\)");
      String run = ComparePipeline.fullRunId(p.taskFile(), "incr");
      assertThat(run).as("the report shows the incremental run").isNotEqualTo(fullRun);
      List<ChunkResult> results = ComparePipeline.results(p.taskFile(), run);
      assertThat(results)
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.getTaskKind()).isEqualTo(TaskKind.INCREMENTAL));
      // (the 15 keys the source holds, plus an absent key a target holds, which is extra; a
      // deleted key the target does not hold either is no row on either side)
      assertThat(ComparePipeline.rowsCounted(results, "pg")).isEqualTo(15 + 1);
      assertThat(ComparePipeline.rowsCounted(results, "maria")).isEqualTo(15);
      assertThat(keys(results, "pg", "failed")).containsExactly("10");
      assertThat(keys(results, "pg", "extra")).containsExactly("20");
      assertThat(keys(results, "pg", "missed")).isEmpty();
      assertThat(keys(results, "maria", "missed")).containsExactly("3001");
      assertThat(keys(results, "maria", "failed")).isEmpty();
      assertThat(keys(results, "maria", "extra")).isEmpty();

      // When the older records of the table topic are deleted and the task runs incrementally
      String topic = f.prefix + ".public.items";
      deleteAllRecords(env, topic);
      cli.clearOut();
      int lost = cli.run("compare", "run", "-c", taskFile, "--kind", "incremental");

      // Then it stops before comparing anything, exit 4, naming the partitions and offsets
      assertThat(lost).as(cli.out() + cli.err()).isEqualTo(ExitCode.UNVERIFIABLE.code());
      assertThat(cli.err())
          .contains("RESYNC_NEEDED")
          .contains("topic " + topic)
          .containsPattern("records \\[\\d+, \\d+\\) of partition \\d are gone")
          .contains("run a full compare");
      assertThat(ComparePipeline.fullRunId(p.taskFile(), "incr")).isEqualTo(run);
    }
  }

  private static boolean has(ComparePipeline p, String target, int id) throws Exception {
    var server = target.equals("pg") ? p.pgServer() : p.mariaServer();
    String database = target.equals("pg") ? p.pgDb() : p.mariaDb();
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items WHERE id = " + id)) {
      rs.next();
      return rs.getLong(1) == 1;
    }
  }

  private static Set<String> keys(List<ChunkResult> results, String target, String kind) {
    Set<String> keys = new TreeSet<>();
    for (ChunkResult r : results) {
      if (r.getTarget().equals(target)) {
        keys.addAll(
            switch (kind) {
              case "failed" -> r.getFailedKeys();
              case "missed" -> r.getMissedKeys();
              default -> r.getExtraKeys();
            });
      }
    }
    return keys;
  }

  /** Deletes every record of the topic up to its current end, as retention would. */
  private static void deleteAllRecords(EmbeddedEnvironment env, String topic) throws Exception {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers());
    Map<TopicPartition, Long> ends;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      ends = consumer.endOffsets(partitions);
    }
    Map<TopicPartition, RecordsToDelete> deletes = new HashMap<>();
    ends.forEach((tp, end) -> deletes.put(tp, RecordsToDelete.beforeOffset(end)));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin.deleteRecords(deletes).all().get(30, TimeUnit.SECONDS);
    }
  }
}
