package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareFixture.MarkerAt;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.TopicLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A key-list run reads exactly its keys on the source, hashes them as a full run does, and notes
 * its chunks as RECHECK or INCREMENTAL chunks without a range and without touching the task's
 * positions; a capture turns the notes into markers.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyListRunIT {
  private static final TableName ORDERS = new TableName("public", "orders");

  private CaptureFixture source;
  private CompareFixture f;
  private CaptureFixture.Running capture;
  private String topic;

  @BeforeAll
  void captureOrders(EmbeddedEnvironment env) throws Exception {
    // 3 000 orders with a composite key: order g is (g % 7, 'c' || g padded to 6 digits)
    source = new CaptureFixture(env);
    f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE orders (region int, code text, qty int NOT NULL, note text NOT NULL,"
            + " PRIMARY KEY (region, code))",
        "INSERT INTO orders SELECT g % 7, 'c' || lpad(g::text, 6, '0'), g, 'n' || (g * 31 % 1000)"
            + " FROM generate_series(1, 3000) g");
    topic = TopicLayout.topicName(source.prefix, ORDERS);
    capture = source.start(source.captureConfig("public.orders"));
  }

  @AfterAll
  void stopCapture() throws Exception {
    capture.close();
  }

  @Test
  void aRecheckComparesItsKeysWithTheHashesOfAFullRunAtTheTargetsItNames() throws Exception {
    // Given a full run of the task at deep=100, and a recheck of it: two chunks of keys, some on
    // the source and some not, each key compared at the targets that listed it
    Map<String, String> task = f.task("recheck", "public.orders");
    task.put("chunk", "1000");
    task.put("deep", "100");
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task), false).run();
    String fullRun = full.tables().get(0).runId();
    await().atMost(Duration.ofSeconds(60)).until(() -> closes(fullRun, "recheck").size() == 3);
    List<List<Object>> positions = positions("recheck");
    assertThat(positions).hasSize(1);
    String runId = RecheckRuns.runId(fullRun, 1);
    KeyList first =
        keys(
            "3,c000010", "a",
            "1,c000001", "a,b",
            "0,c999999", "b",
            "1,c000010", "a",
            "5,c002994", "b");
    KeyList second =
        keys(
            "6,c000006", "b",
            "2,c000100", "a,b",
            "9,c000009", "a");

    // When the recheck runs
    KeyListRun.Summary summary =
        new KeyListRun(
                CompareConfig.of(task),
                runId,
                TaskKind.RECHECK,
                Map.of(ORDERS, List.of(first, second)))
            .run();
    await().atMost(Duration.ofSeconds(60)).until(() -> closes(runId, "recheck").size() == 2);

    // Then it says what it compared
    assertThat(summary.complete()).isTrue();
    assertThat(summary.runId()).isEqualTo(runId);
    assertThat(summary.tables()).containsExactly(new KeyListRun.TableDone(ORDERS, 2, 8, 5, 3));
    // And every partition got the OPEN and CLOSE of both chunks, of kind RECHECK and in order
    List<MarkerAt> markers = ofRun(f.markers(topic, "recheck"), runId);
    for (int p = 0; p < 3; p++) {
      CompareFixture.checkNotes(markers, p, 2);
    }
    assertThat(markers).allMatch(m -> m.marker().getTaskKind() == TaskKind.RECHECK);
    // And the CLOSEs compare no range: the chunk's keys are the hash records'
    Map<String, String> fullHashes = new TreeMap<>();
    closes(fullRun, "recheck").values().forEach(c -> fullHashes.putAll(f.pairs(c)));
    Map<Long, Marker> closes = closes(runId, "recheck");
    checkChunk(closes.get(0L), first, List.of("3,c000010", "1,c000001", "5,c002994"), fullHashes);
    checkChunk(closes.get(1L), second, List.of("6,c000006", "2,c000100"), fullHashes);
    assertThat(closes.get(1L).getHashRecords().stream().map(l -> l.getTablePartition()))
        .containsExactlyInAnyOrder(0, 1, 2);
    // And the task's positions are those the full run left
    assertThat(positions("recheck")).isEqualTo(positions);
  }

  @Test
  void anIncrementalRunOfKeysComparedEverywhereNamesNoTarget() throws Exception {
    // Given a task that never ran, and one chunk of keys compared at every target
    Map<String, String> task = f.task("everywhere", "public.orders");
    KeyList chunk = KeyList.everywhere(List.of("4,c000011", "0,c000007", "0,c000008"));

    // When an incremental run compares them
    KeyListRun.Summary summary =
        new KeyListRun(
                CompareConfig.of(task),
                "incr-1",
                TaskKind.INCREMENTAL,
                Map.of(ORDERS, List.of(chunk)))
            .run();
    await().atMost(Duration.ofSeconds(60)).until(() -> closes("incr-1", "everywhere").size() == 1);

    // Then its records hold the present and absent keys and no targetKeys
    assertThat(summary.tables()).containsExactly(new KeyListRun.TableDone(ORDERS, 1, 3, 2, 1));
    Marker close = closes("incr-1", "everywhere").get(0L);
    assertThat(close.getTaskKind()).isEqualTo(TaskKind.INCREMENTAL);
    assertThat(close.getComparedRange()).isNull();
    List<HashRecord> records = f.hashRecords(close);
    assertThat(records).hasSize(3).allMatch(r -> r.getTargetKeys().isEmpty());
    assertThat(records).allMatch(r -> r.getTaskKind() == TaskKind.INCREMENTAL);
    assertThat(f.pairs(close).keySet()).containsExactlyInAnyOrder("4,c000011", "0,c000007");
    assertThat(records.stream().flatMap(r -> r.getAbsentKeys().stream()))
        .containsExactly("0,c000008");
    // And the task has no position: the run kept none
    assertThat(f.count("SELECT count(*) FROM repi.comparetables WHERE task = 'everywhere'"))
        .isZero();
  }

  @Test
  void aTableNotInTheTaskIsRefusedNamingItBeforeAnyNote() {
    // Given a task over orders, and keys of another table
    Map<String, String> task = f.task("other", "public.orders");
    KeyListRun run =
        new KeyListRun(
            CompareConfig.of(task),
            "r.recheck1",
            TaskKind.RECHECK,
            Map.of(new TableName("public", "lines"), List.of(KeyList.everywhere(List.of("1")))));

    // When it runs / Then it is refused naming the table and the task, and notes nothing
    assertThatThrownBy(run::run)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table public.lines is not one of the tables of task other");
    assertNoNote("other");
  }

  @Test
  void aTableMissingOnTheSourceIsRefusedNamingItBeforeAnyNote() {
    // Given a task naming a table the source does not have, and keys of it
    Map<String, String> task = f.task("missing", "public.orders, public.nosuch");
    KeyListRun run =
        new KeyListRun(
            CompareConfig.of(task),
            "r.recheck1",
            TaskKind.RECHECK,
            Map.of(new TableName("public", "nosuch"), List.of(KeyList.everywhere(List.of("1")))));

    // When it runs / Then it is refused naming the table, and notes nothing
    assertThatThrownBy(run::run)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table public.nosuch does not exist in source database");
    assertNoNote("missing");
  }

  @Test
  void aKeyThatIsNoKeyOfTheTableIsRefusedBeforeAnyNote() {
    // Given a chunk holding a key of one value for the two key columns of orders
    Map<String, String> task = f.task("badkey", "public.orders");
    KeyList chunk = KeyList.everywhere(List.of("3,c000010", "7"));
    KeyListRun run =
        new KeyListRun(
            CompareConfig.of(task), "r.recheck1", TaskKind.RECHECK, Map.of(ORDERS, List.of(chunk)));

    // When it runs / Then it is refused naming the table and the chunk, and notes nothing
    assertThatThrownBy(run::run)
        .hasMessageContaining("table public.orders: key-list chunk 0 holds a key that is no key");
    assertNoNote("badkey");
  }

  @Test
  void aKeyListRunOfARunningTaskIsRefusedNamingTheTask() throws Exception {
    // Given a key-list run of a task, held after its first chunk's OPEN
    Map<String, String> task = f.task("locked", "public.orders");
    CountDownLatch opened = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    KeyListRun first =
        new KeyListRun(
                CompareConfig.of(task),
                "r.recheck1",
                TaskKind.RECHECK,
                Map.of(ORDERS, List.of(KeyList.everywhere(List.of("3,c000010")))))
            .onChunkOpened(
                (table, chunk) -> {
                  opened.countDown();
                  release.await(60, TimeUnit.SECONDS);
                });
    CompletableFuture<KeyListRun.Summary> done = runAsync(first);
    assertThat(opened.await(60, TimeUnit.SECONDS)).isTrue();

    // When the task is run again meanwhile
    // Then it is refused naming the task
    assertThatThrownBy(
            () ->
                new KeyListRun(
                        CompareConfig.of(task),
                        "r.recheck2",
                        TaskKind.RECHECK,
                        Map.of(ORDERS, List.of(KeyList.everywhere(List.of("1,c000001")))))
                    .run())
        .hasMessageContaining("task locked is already running");
    release.countDown();
    assertThat(done.get(60, TimeUnit.SECONDS).complete()).isTrue();
  }

  @Test
  void aStoppedRunClosesTheChunkItReadsAndOpensNoOther() throws Exception {
    // Given a key-list run of three chunks, asked to stop once its first chunk is open
    Map<String, String> task = f.task("stopped", "public.orders");
    List<KeyList> chunks =
        List.of(
            KeyList.everywhere(List.of("3,c000010")),
            KeyList.everywhere(List.of("1,c000001")),
            KeyList.everywhere(List.of("2,c000002")));
    KeyListRun run =
        new KeyListRun(
            CompareConfig.of(task), "s.recheck1", TaskKind.RECHECK, Map.of(ORDERS, chunks));
    run.onChunkOpened((table, chunk) -> run.stop());

    // When it runs
    KeyListRun.Summary summary = run.run();

    // Then it stopped after closing that chunk
    assertThat(summary.complete()).isFalse();
    assertThat(summary.tables()).containsExactly(new KeyListRun.TableDone(ORDERS, 1, 1, 1, 0));
    await().atMost(Duration.ofSeconds(60)).until(() -> closes("s.recheck1", "stopped").size() == 1);
    assertThat(ofRun(f.markers(topic, "stopped"), "s.recheck1"))
        .extracting(m -> m.marker().getPhase() + " " + m.marker().getChunk())
        .containsOnly("OPEN 0", "CLOSE 0");
  }

  /**
   * Checks a key-list chunk's CLOSE and hash records: no range, its counts, exactly the present
   * keys with a full run's hashes, the absent keys, each key in its partition, and per target the
   * keys the chunk gives it.
   */
  private void checkChunk(
      Marker close, KeyList chunk, List<String> present, Map<String, String> fullHashes) {
    assertThat(close.getComparedRange()).isNull();
    assertThat(close.getFirstComparedKey()).isNull();
    assertThat(close.getLastKey()).isNull();
    assertThat(close.getChunkRows()).isEqualTo(chunk.size());
    assertThat(close.getComparedRows()).isEqualTo(present.size());
    Map<String, String> expected = new TreeMap<>();
    present.forEach(k -> expected.put(k, fullHashes.get(k)));
    assertThat(expected.values()).doesNotContainNull();
    assertThat(f.pairs(close)).isEqualTo(expected);
    List<String> absent = new ArrayList<>(chunk.keys());
    absent.removeAll(present);
    List<String> absentSeen = new ArrayList<>();
    Map<String, Set<String>> targetKeys = new TreeMap<>();
    for (HashRecord r : f.hashRecords(close)) {
      assertThat(r.getTaskKind()).isEqualTo(TaskKind.RECHECK);
      assertThat(r.getRunId()).isEqualTo(close.getRunId());
      List<String> own = new ArrayList<>(r.getKeys());
      own.addAll(r.getAbsentKeys());
      assertThat(own).allMatch(k -> KeyPartitioner.partition(k, 3) == r.getTablePartition());
      absentSeen.addAll(r.getAbsentKeys());
      r.getTargetKeys()
          .forEach((t, keys) -> targetKeys.computeIfAbsent(t, x -> new TreeSet<>()).addAll(keys));
    }
    assertThat(absentSeen).containsExactlyInAnyOrderElementsOf(absent);
    Map<String, Set<String>> expectedTargets = new TreeMap<>();
    chunk
        .keysByTarget(chunk.keys())
        .forEach((t, keys) -> expectedTargets.put(t, new TreeSet<>(keys)));
    assertThat(targetKeys).isEqualTo(expectedTargets).isNotEmpty();
  }

  /** A chunk of keys, each followed by its targets, comma separated. */
  private static KeyList keys(String... keysAndTargets) {
    Map<String, Set<String>> keys = new LinkedHashMap<>();
    for (int i = 0; i < keysAndTargets.length; i += 2) {
      keys.put(keysAndTargets[i], new TreeSet<>(Arrays.asList(keysAndTargets[i + 1].split(","))));
    }
    return new KeyList(keys);
  }

  /** The CLOSE markers of a run of a task, of partition 0, by chunk. */
  private Map<Long, Marker> closes(String runId, String task) {
    return CompareFixture.closes(ofRun(f.markers(topic, task), runId));
  }

  private static List<MarkerAt> ofRun(List<MarkerAt> markers, String runId) {
    return markers.stream().filter(m -> m.marker().getRunId().equals(runId)).toList();
  }

  private List<List<Object>> positions(String task) throws Exception {
    return source
        .rows(
            "SELECT task_run_id, run_id, state, next_chunk, saved_position, chunks_done, rows_read,"
                + " tail_closed, updated_at::text FROM repi.comparetables WHERE task = '"
                + task
                + "'")
        .stream()
        .map(Arrays::asList)
        .toList();
  }

  private void assertNoNote(String task) {
    try {
      assertThat(f.count("SELECT count(*) FROM repi.validatetables WHERE task = '" + task + "'"))
          .isZero();
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static CompletableFuture<KeyListRun.Summary> runAsync(KeyListRun run) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return run.run();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }
}
