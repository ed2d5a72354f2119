package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareFixture.MarkerAt;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.source.TopicLayout;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** A full compare task reads key-ordered chunks, hashes their last rows and notes each chunk. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CompareIT {
  private static final int ROWS = 100_000;
  private static final int CHUNK = 7_000;

  @Test
  void hashRecordsCoverExactlyTheComparedRowsOfEveryChunk(EmbeddedEnvironment env)
      throws Exception {
    // Given 100 000 rows with a composite key (15 chunks of 7 000, the last one 2 000 rows)
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    String topic = loadOrders(source, ROWS);
    Map<String, String> task = f.task("full", "public.orders");
    task.put("chunk", Integer.toString(CHUNK));
    task.put("deep", "10");

    // When the task runs with the capture streaming
    CompareRun.Summary summary = f.runCaptured("public.orders", task, topic, 90);

    // Then every chunk's hash records hold exactly its compared rows: the last 10 %
    Map<Long, Map<String, String>> expected = expectedChunks(source, 10);
    List<MarkerAt> markers = f.markers(topic, "full");
    Map<Long, Marker> closes = CompareFixture.closes(markers);
    assertThat(summary.complete()).isTrue();
    assertThat(summary.tables().get(0).rows()).isEqualTo(ROWS);
    assertThat(summary.tables().get(0).comparedRows()).isEqualTo(14 * 700 + 200);
    assertThat(closes.keySet()).isEqualTo(expected.keySet()).hasSize(15);
    Set<String> seen = new HashSet<>();
    for (Map.Entry<Long, Marker> e : closes.entrySet()) {
      Marker close = e.getValue();
      Map<String, String> chunk = expected.get(e.getKey());
      assertThat(f.pairs(close)).as("chunk %d", e.getKey()).isEqualTo(chunk);
      assertThat(close.getComparedRows()).isEqualTo(chunk.size());
      assertThat(close.getChunkRows()).isEqualTo(e.getKey() < 14 ? CHUNK : 2_000);
      assertThat(close.getFirstComparedKey()).isEqualTo(chunk.keySet().iterator().next());
      assertThat(close.getComparedShape()).contains("\"keyColumns\"");
      for (String key : chunk.keySet()) {
        assertThat(seen.add(key)).as("key %s in one chunk only", key).isTrue();
      }
      for (HashRecord r : f.hashRecords(close)) {
        assertThat(r.getKeys())
            .allMatch(k -> KeyPartitioner.partition(k, 3) == r.getTablePartition());
      }
    }
    assertThat(closes.get(14L).getLastKey()).isEqualTo(lastKey(source));

    // And every partition got every note: each chunk opened once and closed once, in order, the
    // next one opened at most while its predecessor closed
    for (int p = 0; p < 3; p++) {
      assertThat(CompareFixture.checkNotes(markers, p, 15))
          .as("OPENs per chunk in partition %d", p)
          .hasSize(15)
          .allSatisfy((chunk, opens) -> assertThat(opens).isEqualTo(1));
    }
  }

  @Test
  void deepHundredHashesEveryRowWhileTheScanReadsOn(EmbeddedEnvironment env) throws Exception {
    // Given 25 500 rows with a composite key: 3 chunks of 7 000 and one of 4 500, each hashed on
    // the hashing thread in batches of 1 000 rows, the last batch of a chunk partial
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    String topic = loadOrders(source, 25_500);
    Map<String, String> task = f.task("every", "public.orders");
    task.put("chunk", Integer.toString(CHUNK));
    task.put("deep", "100");

    // When the task runs with the capture streaming
    CompareRun.Summary summary = f.runCaptured("public.orders", task, topic, 24);

    // Then every row of every chunk is in its hash records with the hash SQL computes
    assertThat(summary.complete()).isTrue();
    assertThat(summary.tables().get(0).comparedRows()).isEqualTo(25_500);
    Map<Long, Map<String, String>> expected = expectedChunks(source, 100);
    Map<Long, Marker> closes = CompareFixture.closes(f.markers(topic, "every"));
    assertThat(closes.keySet()).isEqualTo(expected.keySet()).hasSize(4);
    for (Map.Entry<Long, Marker> e : closes.entrySet()) {
      Map<String, String> chunk = expected.get(e.getKey());
      assertThat(f.pairs(e.getValue())).as("chunk %d", e.getKey()).isEqualTo(chunk);
      assertThat(e.getValue().getFirstComparedKey()).isEqualTo(chunk.keySet().iterator().next());
      assertThat(e.getValue().getLastKey())
          .isEqualTo(new ArrayList<>(chunk.keySet()).get(chunk.size() - 1));
    }
  }

  @Test
  void deepTenOf105RowsComparesTheLast11(EmbeddedEnvironment env) throws Exception {
    // Given 105 rows
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE small (id int PRIMARY KEY, v text)",
        "INSERT INTO small SELECT g, 'v' || g FROM generate_series(1, 105) g");
    String topic = TopicLayout.topicName(source.prefix, new TableName("public", "small"));
    Map<String, String> task = f.task("small", "public.small");

    // When a task compares it at the default deep=10
    try (CaptureFixture.Running capture = source.start(source.captureConfig("public.small"))) {
      new CompareRun(CompareConfig.of(task), false).run();
      await().atMost(Duration.ofSeconds(60)).until(() -> f.markers(topic, "small").size() >= 6);
    }

    // Then its one chunk compares exactly the rows 95..105
    Marker close = CompareFixture.closes(f.markers(topic, "small")).get(0L);
    List<String> expected = new ArrayList<>();
    for (int id = 95; id <= 105; id++) {
      expected.add(Integer.toString(id));
    }
    assertThat(f.pairs(close).keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(close.getChunkRows()).isEqualTo(105);
    assertThat(close.getComparedRows()).isEqualTo(11);
    assertThat(close.getFirstComparedKey()).isEqualTo("95");
    assertThat(close.getLastKey()).isEqualTo("105");
    assertThat(close.getHashRecords()).extracting(l -> l.getTablePartition()).contains(0, 1, 2);
  }

  @Test
  void hashRecordTooBigForTheTopicIsSplitIntoParts(EmbeddedEnvironment env) throws Exception {
    // Given a hashes topic that accepts at most 8 KiB per record, and chunks of 5 000 keys
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE wide (id bigint PRIMARY KEY, v text)",
        "INSERT INTO wide SELECT g, md5(g::text) FROM generate_series(1, 12000) g");
    smallHashesTopic(env, source);
    String topic = TopicLayout.topicName(source.prefix, new TableName("public", "wide"));
    Map<String, String> task = f.task("split", "public.wide");
    task.put("chunk", "5000");
    task.put("deep", "100");

    // When the task runs
    CompareRun.Summary summary = f.runCaptured("public.wide", task, topic, 18);

    // Then it finished, each partition's record came in several parts, and together they hold
    // every key once
    assertThat(summary.complete()).isTrue();
    Map<Long, Marker> closes = CompareFixture.closes(f.markers(topic, "split"));
    assertThat(closes).hasSize(3);
    Set<String> keys = new HashSet<>();
    for (Marker close : closes.values()) {
      assertThat(close.getHashRecords()).allMatch(l -> l.getPartCount() > 1);
      for (int p = 0; p < 3; p++) {
        int partition = p;
        List<HashRecordLocation> parts =
            close.getHashRecords().stream()
                .filter(l -> l.getTablePartition() == partition)
                .toList();
        assertThat(parts)
            .extracting(l -> l.getPart())
            .containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, parts.get(0).getPartCount()).boxed().toList());
      }
      keys.addAll(f.pairs(close).keySet());
    }
    assertThat(keys).hasSize(12_000);
  }

  @Test
  void aChunkWhoseHashRecordCannotBeWrittenStopsTheRunAfterTheChunksBeforeItClosed(
      EmbeddedEnvironment env) throws Exception {
    // Given a hashes topic that accepts at most 8 KiB per record, and a table of 120 text keys
    // whose
    // last one alone needs more: chunks of 50 keys, the key in the third
    CaptureFixture source = new CaptureFixture(env);
    CompareFixture f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE big (k text PRIMARY KEY, v int)",
        "INSERT INTO big SELECT 'k' || lpad(g::text, 4, '0'), g FROM generate_series(1, 119) g",
        "INSERT INTO big VALUES ('z' || repeat('x', 9000), 0)");
    smallHashesTopic(env, source);
    String topic = TopicLayout.topicName(source.prefix, new TableName("public", "big"));
    Map<String, String> task = f.task("big", "public.big");
    task.put("chunk", "50");
    task.put("deep", "100");

    // When the task runs, its hash record being written on the closer's thread
    Throwable failure;
    try (CaptureFixture.Running capture = source.start(source.captureConfig("public.big"))) {
      failure = catchThrowable(() -> new CompareRun(CompareConfig.of(task), false).run());
      await().atMost(Duration.ofSeconds(60)).until(() -> f.markers(topic, "big").size() >= 15);
    }

    // Then the run fails naming the table, the chunk and the setting to raise
    assertThat(failure)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table public.big")
        .hasMessageContaining("chunk 2")
        .hasMessageContaining("hashes.max.record.bytes");
    // And the two chunks before it are closed, the third opened and never closed, and the position
    // stays after chunk 1, so a rerun starts there
    List<MarkerAt> markers = f.markers(topic, "big");
    for (int p = 0; p < 3; p++) {
      int partition = p;
      assertThat(markers.stream().filter(m -> m.partition() == partition))
          .extracting(m -> m.marker().getPhase() + " " + m.marker().getChunk())
          .containsExactlyInAnyOrder("OPEN 0", "OPEN 1", "CLOSE 0", "OPEN 2", "CLOSE 1");
    }
    assertThat(
            f.count(
                "SELECT chunks_done FROM repi.comparetables WHERE task = 'big'"
                    + " AND state = 'RUNNING' AND next_chunk = 2"))
        .isEqualTo(2);
  }

  /** Creates the hashes topic with records of at most 8 KiB, before a task would. */
  private static void smallHashesTopic(EmbeddedEnvironment env, CaptureFixture source)
      throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(source.prefix + ".compare.hashes", 2, (short) 1)
                      .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "8192"))))
          .all()
          .get();
    }
  }

  /** Creates {@code orders} with a composite key and {@code rows} rows; returns its topic. */
  private static String loadOrders(CaptureFixture source, int rows) throws Exception {
    source.sql(
        "CREATE TABLE orders (region int, code text, qty int NOT NULL, note text NOT NULL,"
            + " PRIMARY KEY (region, code))",
        "INSERT INTO orders SELECT g % 7, 'c' || lpad(g::text, 6, '0'), g, 'n' || (g * 31 % 1000)"
            + " FROM generate_series(1, "
            + rows
            + ") g");
    return TopicLayout.topicName(source.prefix, new TableName("public", "orders"));
  }

  /**
   * The compared rows of every chunk, computed by SQL alone: the key text and the MD5 of the
   * compatible row text (no value here needs escaping or trimming).
   */
  private static Map<Long, Map<String, String>> expectedChunks(CaptureFixture source, int deep)
      throws Exception {
    Map<Long, Map<String, String>> chunks = new TreeMap<>();
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "WITH o AS (SELECT *, row_number() OVER (ORDER BY region, code) - 1 AS i"
                    + " FROM orders), k AS (SELECT *, i / "
                    + CHUNK
                    + " AS chunk, i % "
                    + CHUNK
                    + " AS idx, count(*) OVER (PARTITION BY i / "
                    + CHUNK
                    + ") AS n FROM o)"
                    + " SELECT chunk, region || ',' || code,"
                    + " md5(region || ',' || code || ',' || qty || ',' || note)"
                    + " FROM k WHERE idx >= n - (n * "
                    + deep
                    + " + 50) / 100 ORDER BY i")) {
      while (rs.next()) {
        chunks
            .computeIfAbsent(rs.getLong(1), k -> new java.util.LinkedHashMap<>())
            .put(rs.getString(2), rs.getString(3));
      }
    }
    return chunks;
  }

  private static String lastKey(CaptureFixture source) throws Exception {
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT region || ',' || code FROM orders ORDER BY region DESC, code DESC LIMIT 1")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
