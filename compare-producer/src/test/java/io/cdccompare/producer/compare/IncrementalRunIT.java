package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.stream.TopicOffsets;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.producer.compare.CompareFixture.MarkerAt;
import io.cdccompare.producer.compare.IncrementalRun.Outcome;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.TopicLayout;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An incremental run compares exactly the keys changed since its table's last completed run, read
 * from the table topic a real capture writes, as INCREMENTAL key-list chunks; a table without a
 * completed run gets a full run; a topic that no longer holds the range stops the run before any
 * note.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IncrementalRunIT {
  private static final TableName ORDERS = new TableName("public", "orders");
  private static final TableName QUIET = new TableName("public", "quiet");
  private static final TableName PRUNED = new TableName("public", "pruned");
  private static final TableName RECREATED = new TableName("public", "recreated");
  private static final TableName RESENT = new TableName("public", "resent");
  private static final TableName MANY = new TableName("public", "many");

  private CaptureFixture source;
  private CompareFixture f;
  private CaptureFixture.Running capture;
  private Admin admin;
  private EmbeddedEnvironment env;

  @BeforeAll
  void captureTables(EmbeddedEnvironment env) throws Exception {
    this.env = env;
    // orders: 3 000 rows with a composite key, order g is (g % 7, 'c' || g padded to 6 digits);
    // quiet, pruned, recreated, resent: 300 rows each, keyed by id; many: 3 000 rows keyed by id
    source = new CaptureFixture(env);
    f = new CompareFixture(source);
    source.sql(
        "CREATE TABLE orders (region int, code text, qty int NOT NULL, note text NOT NULL,"
            + " PRIMARY KEY (region, code))",
        "INSERT INTO orders SELECT g % 7, 'c' || lpad(g::text, 6, '0'), g, 'n' || (g * 31 % 1000)"
            + " FROM generate_series(1, 3000) g");
    for (String table : List.of("quiet", "pruned", "recreated", "resent")) {
      source.sql(
          "CREATE TABLE " + table + " (id int PRIMARY KEY, v text NOT NULL)",
          "INSERT INTO " + table + " SELECT g, 'v' || g FROM generate_series(1, 300) g");
    }
    source.sql(
        "CREATE TABLE many (id int PRIMARY KEY, v text NOT NULL)",
        "INSERT INTO many SELECT g, 'v' || g FROM generate_series(1, 3000) g");
    capture =
        source.start(
            source.captureConfig(
                "public.orders, public.quiet, public.pruned, public.recreated, public.resent,"
                    + " public.many"));
    admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()));
  }

  @AfterAll
  void stopCapture() throws Exception {
    admin.close();
    capture.close();
  }

  @Test
  void anIncrementalRunComparesExactlyTheKeysChangedSinceTheFullRun() throws Exception {
    // Given a full run of orders at deep=100 that completed
    Map<String, String> task = task("incr", "public.orders");
    new CompareRun(CompareConfig.of(task), false).run();
    TopicOffsets completed = completedOffsets("incr", ORDERS);
    assertThat(completed).isNotNull();
    // And then updates, inserts and deletes on the source, one key updated then deleted, one
    // inserted then deleted, written by the capture
    source.sql(
        "UPDATE orders SET qty = qty + 1 WHERE (region, code) IN ((1, 'c000001'), (3, 'c000010'))",
        "UPDATE orders SET note = 'again' WHERE (region, code) = (1, 'c000001')",
        "INSERT INTO orders VALUES (2, 'c900001', 1, 'new'), (4, 'c900002', 2, 'new')",
        "DELETE FROM orders WHERE (region, code) IN ((5, 'c000005'), (0, 'c000007'))",
        "UPDATE orders SET qty = 0 WHERE (region, code) = (6, 'c000006')",
        "DELETE FROM orders WHERE (region, code) = (6, 'c000006')",
        "INSERT INTO orders VALUES (5, 'c900003', 3, 'brief')",
        "DELETE FROM orders WHERE (region, code) = (5, 'c900003')");
    Set<String> present = Set.of("1,c000001", "3,c000010", "2,c900001", "4,c900002");
    Set<String> deleted = Set.of("5,c000005", "0,c000007", "6,c000006", "5,c900003");
    Set<String> changed = new TreeSet<>(present);
    changed.addAll(deleted);
    String topic = TopicLayout.topicName(source.prefix, ORDERS);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> changedKeysInTopic(topic, completed).equals(changed));

    // When an incremental run of the task runs
    Map<String, String> incremental = new HashMap<>(task);
    incremental.put(CompareConfig.TASK_KIND, "incremental");
    CompareConfig config = CompareConfig.of(incremental);
    assertThat(config.kind()).isEqualTo(TaskKind.INCREMENTAL);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IncrementalRun.Summary summary =
        new IncrementalRun(config, new CompareMeters(registry, "incr")).run();

    // Then it compared the 8 changed keys, 4 on the source and 4 deleted, not the table
    assertThat(summary.complete()).isTrue();
    // and its meters counted those 8 keys as the rows it read, the table done
    assertThat(
            registry
                .get(MetricNames.COMPARE_ROWS.name())
                .tags("task", "incr", "table", "public.orders")
                .counter()
                .count())
        .isEqualTo(8.0);
    assertThat(
            registry
                .get(MetricNames.COMPARE_PROGRESS.name())
                .tags("task", "incr", "table", "public.orders")
                .gauge()
                .value())
        .isEqualTo(1.0);
    assertThat(summary.tables())
        .containsExactly(
            new IncrementalRun.TableDone(
                ORDERS, Outcome.INCREMENTAL, summary.runId(), 8, 1, 4, 4, true));
    assertThat(summary.tables().get(0).describe())
        .isEqualTo(
            "public.orders: run "
                + summary.runId()
                + ": 8 changed keys in 1 chunks (4 on the source, 4 deleted)");
    // And every partition got the OPEN and CLOSE of its one chunk, of kind INCREMENTAL
    await().atMost(Duration.ofSeconds(60)).until(() -> closes(topic, "incr", summary).size() == 1);
    List<MarkerAt> markers = ofRun(f.markers(topic, "incr"), summary.runId());
    for (int p = 0; p < 3; p++) {
      CompareFixture.checkNotes(markers, p, 1);
    }
    assertThat(markers).allMatch(m -> m.marker().getTaskKind() == TaskKind.INCREMENTAL);
    Marker close = closes(topic, "incr", summary).get(0L);
    assertThat(close.getComparedRange()).isNull();
    assertThat(close.getChunkRows()).isEqualTo(8);
    assertThat(close.getComparedRows()).isEqualTo(4);
    // And its hash records hold exactly the changed keys: the present ones with the hashes a full
    // run gives them now, the deleted ones as absent keys, each in its partition, at every target
    List<HashRecord> records = f.hashRecords(close);
    assertThat(records).allMatch(r -> r.getTargetKeys().isEmpty());
    List<String> absent = new ArrayList<>();
    for (HashRecord r : records) {
      assertThat(r.getTaskKind()).isEqualTo(TaskKind.INCREMENTAL);
      List<String> own = new ArrayList<>(r.getKeys());
      own.addAll(r.getAbsentKeys());
      assertThat(own).allMatch(k -> KeyPartitioner.partition(k, 3) == r.getTablePartition());
      absent.addAll(r.getAbsentKeys());
    }
    assertThat(absent).containsExactlyInAnyOrderElementsOf(deleted);
    Map<String, String> now = fullHashes("incr-reference", "public.orders", topic);
    Map<String, String> expected = new TreeMap<>();
    present.forEach(k -> expected.put(k, now.get(k)));
    assertThat(expected.values()).doesNotContainNull();
    assertThat(f.pairs(close)).isEqualTo(expected);
    // And the table's completed offsets moved past the changes
    TopicOffsets moved = completedOffsets("incr", ORDERS);
    for (int p = 0; p < 3; p++) {
      assertThat(moved.offset(p)).isGreaterThan(completed.offset(p));
    }
  }

  @Test
  void moreChangedKeysThanOneLookUpStatementTakesAreAllComparedWithTheirFullRunHashes()
      throws Exception {
    // Given a completed full run of many (a key of one column: its keys are looked up 1 000 to a
    // statement), then 2 400 rows updated, 100 deleted and 100 inserted on the source: 2 600
    // changed keys in one chunk, three look-up statements
    Map<String, String> task = task("many", "public.many");
    task.put("chunk", "5000");
    new CompareRun(CompareConfig.of(task), false).run();
    TopicOffsets completed = completedOffsets("many", MANY);
    source.sql(
        "UPDATE many SET v = v || '+' WHERE id <= 2400",
        "DELETE FROM many WHERE id > 2900",
        "INSERT INTO many SELECT g, 'new' || g FROM generate_series(5001, 5100) g");
    String topic = TopicLayout.topicName(source.prefix, MANY);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> changedKeysInTopic(topic, completed).size() == 2600);

    // When an incremental run of the task runs
    IncrementalRun.Summary summary = new IncrementalRun(incremental(task)).run();

    // Then it compared the 2 600 changed keys in one chunk: 2 500 on the source, 100 deleted
    assertThat(summary.tables())
        .containsExactly(
            new IncrementalRun.TableDone(
                MANY, Outcome.INCREMENTAL, summary.runId(), 2600, 1, 2500, 100, true));
    // And its hash records hold every present key with the hash a full run gives it now, and
    // the deleted keys as absent
    await().atMost(Duration.ofSeconds(60)).until(() -> closes(topic, "many", summary).size() == 1);
    Marker close = closes(topic, "many", summary).get(0L);
    List<String> absent = new ArrayList<>();
    f.hashRecords(close).forEach(r -> absent.addAll(r.getAbsentKeys()));
    assertThat(new TreeSet<>(absent))
        .isEqualTo(
            new TreeSet<>(
                java.util.stream.IntStream.rangeClosed(2901, 3000)
                    .mapToObj(Integer::toString)
                    .toList()));
    Map<String, String> now = fullHashes("many-reference", "public.many", topic);
    Map<String, String> expected = new TreeMap<>(now);
    expected.keySet().removeIf(k -> Integer.parseInt(k) > 2400 && Integer.parseInt(k) <= 2900);
    assertThat(expected).hasSize(2500);
    assertThat(f.pairs(close)).isEqualTo(expected);
  }

  @Test
  void anIncrementalRunOfARunningTaskIsRefusedNamingTheHolderAndLeavesNoSession() throws Exception {
    // Given a completed full run of quiet, and another process holding the task's lock
    Map<String, String> task = task("held", "public.quiet");
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task), false).run();
    TopicOffsets completed = completedOffsets("held", QUIET);
    try (TaskLock other = TaskLock.named(CompareConfig.of(task), "another-process")) {
      other.take();

      // When an incremental run of the task runs
      // Then it is refused naming the task and the session that holds its lock
      assertThatThrownBy(() -> new IncrementalRun(incremental(task)).run())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("task held is already running in another process: session pid ")
          .hasMessageContaining(" (another-process, connected at ");
      // And it left no session of its own open, no note and the completed offsets as they were
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  source
                      .rows(
                          "SELECT application_name FROM pg_stat_activity"
                              + " WHERE application_name LIKE 'cdc-compare-%-held'")
                      .isEmpty());
      assertThat(noteOf("held")).containsExactly(runOf(full), "FULL");
      assertThat(completedOffsets("held", QUIET)).isEqualTo(completed);
    }
  }

  @Test
  void anIncrementalRunWithoutAChangeComparesNothing() throws Exception {
    // Given a completed full run of quiet, and no change since
    Map<String, String> task = task("still", "public.quiet");
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task), false).run();
    String topic = TopicLayout.topicName(source.prefix, QUIET);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> CompareFixture.closes(ofRun(f.markers(topic, "still"), runOf(full))).size() == 1);
    TopicOffsets completed = completedOffsets("still", QUIET);

    // When an incremental run of the task runs
    IncrementalRun.Summary summary = new IncrementalRun(incremental(task)).run();

    // Then it compared nothing and said so, wrote no note, and moved the completed offsets past
    // the full run's own markers
    assertThat(summary.complete()).isTrue();
    assertThat(summary.tables())
        .containsExactly(
            new IncrementalRun.TableDone(
                QUIET, Outcome.NO_CHANGE, summary.runId(), 0, 0, 0, 0, true));
    assertThat(summary.tables().get(0).describe())
        .isEqualTo("public.quiet: no key changed since its last completed run, nothing to compare");
    assertThat(noteOf("still")).containsExactly(runOf(full), "FULL");
    TopicOffsets moved = completedOffsets("still", QUIET);
    for (int p = 0; p < 3; p++) {
      assertThat(moved.offset(p)).isGreaterThanOrEqualTo(completed.offset(p) + 2); // OPEN, CLOSE
    }
  }

  @Test
  void theFirstIncrementalRunOfATableRunsItInFullAndSaysSo() throws Exception {
    // Given a task that never ran
    Map<String, String> task = task("first", "public.quiet");

    // When an incremental run of it runs
    IncrementalRun.Summary summary = new IncrementalRun(incremental(task)).run();

    // Then the table got a full run, noted as FULL, that left completed offsets
    assertThat(summary.complete()).isTrue();
    IncrementalRun.TableDone done = summary.tables().get(0);
    assertThat(done.outcome()).isEqualTo(Outcome.FULL_RUN);
    assertThat(done.keys()).isEqualTo(300);
    assertThat(done.present()).isEqualTo(300);
    assertThat(done.describe()).startsWith("first incremental run of public.quiet: full run (run ");
    assertThat(noteOf("first")).containsExactly(done.runId(), "FULL");
    assertThat(completedOffsets("first", QUIET)).isNotNull();
  }

  @Test
  void recordsDeletedPastTheCompletedOffsetsStopTheRunBeforeAnyNote() throws Exception {
    // Given a completed full run of pruned, then a change, then the topic's records deleted up to
    // its end in every partition (past the completed offsets)
    Map<String, String> task = task("pruned", "public.pruned");
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task), false).run();
    String topic = TopicLayout.topicName(source.prefix, PRUNED);
    TopicOffsets completed = completedOffsets("pruned", PRUNED);
    source.sql("UPDATE pruned SET v = 'changed' WHERE id = 7");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> changedKeysInTopic(topic, completed).equals(Set.of("7")));
    Map<Integer, Long> ends = endOffsets(topic);
    Map<TopicPartition, RecordsToDelete> deletions = new HashMap<>();
    ends.forEach(
        (p, end) -> deletions.put(new TopicPartition(topic, p), RecordsToDelete.beforeOffset(end)));
    admin.deleteRecords(deletions).all().get();
    assertThat(earliestOffsets(topic)).isEqualTo(ends); // the records are really gone

    // When an incremental run of the task runs
    // Then it is refused naming the table, the topic and each partition's missing records
    assertThatThrownBy(() -> new IncrementalRun(incremental(task)).run())
        .isInstanceOfSatisfying(
            IncrementalRangeLostException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.RESYNC_NEEDED);
              assertThat(e.table()).isEqualTo(PRUNED);
              assertThat(e.topic()).isEqualTo(topic);
              assertThat(e.getMessage())
                  .startsWith("RESYNC_NEEDED: table public.pruned, topic " + topic + ": ")
                  .endsWith(": run a full compare");
              for (int p = 0; p < 3; p++) {
                assertThat(e.getMessage())
                    .contains(
                        "records ["
                            + completed.offset(p)
                            + ", "
                            + ends.get(p)
                            + ") of partition "
                            + p
                            + " are gone");
              }
            });
    // And it wrote no note and left the completed offsets as they were
    assertThat(noteOf("pruned")).containsExactly(runOf(full), "FULL");
    assertThat(completedOffsets("pruned", PRUNED)).isEqualTo(completed);
  }

  @Test
  void aRecreatedTopicStopsTheRunBeforeAnyNote() throws Exception {
    // Given a completed full run of recreated, then its topic deleted and created again
    Map<String, String> task = task("recreated", "public.recreated");
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task), false).run();
    String topic = TopicLayout.topicName(source.prefix, RECREATED);
    TopicOffsets completed = completedOffsets("recreated", RECREATED);
    admin.deleteTopics(List.of(topic)).all().get();
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptionsInstanceOf(ExecutionException.class)
        .until(
            () -> {
              admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
              return true;
            });
    // The creation returns once the controller recorded it; the broker answers for the new topic
    // a moment later (asked at once under load, it said UnknownTopicOrPartition): wait for that,
    // with a leader for every partition, as a user's next command would find it
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptionsInstanceOf(ExecutionException.class)
        .until(
            () ->
                admin
                        .describeTopics(List.of(topic))
                        .allTopicNames()
                        .get()
                        .get(topic)
                        .partitions()
                        .stream()
                        .filter(p -> p.leader() != null)
                        .count()
                    == 3);
    String newId =
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId().toString();
    assertThat(newId).isNotEqualTo(completed.topicId()); // it is really another topic

    // When an incremental run of the task runs
    // Then it is refused naming the table, the topic and both ids
    assertThatThrownBy(() -> new IncrementalRun(incremental(task)).run())
        .isInstanceOf(IncrementalRangeLostException.class)
        .hasMessage(
            "RESYNC_NEEDED: table public.recreated, topic "
                + topic
                + ": topic "
                + topic
                + " was recreated (id "
                + completed.topicId()
                + " when the last run completed, "
                + newId
                + " now): the records since are gone: run a full compare");
    // And it wrote no note and left the completed offsets as they were
    assertThat(noteOf("recreated")).containsExactly(runOf(full), "FULL");
    assertThat(completedOffsets("recreated", RECREATED)).isEqualTo(completed);
  }

  @Test
  void reSentRowsCountAsChangedKeysNotAsALostRange() throws Exception {
    // Given a completed full run of resent, then two of its keys re-sent through the capture (op
    // r records with the re-send header in the range)
    Map<String, String> task = task("resent", "public.resent");
    new CompareRun(CompareConfig.of(task), false).run();
    String topic = TopicLayout.topicName(source.prefix, RESENT);
    TopicOffsets completed = completedOffsets("resent", RESENT);
    try (java.sql.Connection c = source.connect()) {
      io.cdccompare.producer.repair.KeyResend.of(env.kafka().bootstrapServers(), source.prefix)
          .resend(c, RESENT, List.of("id"), List.of("7", "70"), Duration.ofSeconds(60));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> changedKeysInTopic(topic, completed).equals(Set.of("7", "70")));

    // When an incremental run of the task runs
    IncrementalRun.Summary summary = new IncrementalRun(incremental(task)).run();

    // Then it compared exactly the two re-sent keys, both on the source
    assertThat(summary.complete()).isTrue();
    assertThat(summary.tables())
        .containsExactly(
            new IncrementalRun.TableDone(
                RESENT, Outcome.INCREMENTAL, summary.runId(), 2, 1, 2, 0, true));
  }

  /** A task at deep=100 in chunks of 1 000. */
  private Map<String, String> task(String name, String tables) {
    Map<String, String> task = f.task(name, tables);
    task.put("chunk", "1000");
    task.put("deep", "100");
    return task;
  }

  private static CompareConfig incremental(Map<String, String> task) {
    Map<String, String> values = new HashMap<>(task);
    values.put(CompareConfig.TASK_KIND, "incremental");
    return CompareConfig.of(values);
  }

  /** The (key, hex hash) pairs a full run of a task of its own gives the table now. */
  private Map<String, String> fullHashes(String name, String table, String topic) throws Exception {
    CompareRun.Summary full = new CompareRun(CompareConfig.of(task(name, table)), false).run();
    long chunks = full.tables().get(0).chunks();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                CompareFixture.closes(ofRun(f.markers(topic, name), runOf(full))).size() == chunks);
    Map<String, String> pairs = new TreeMap<>();
    CompareFixture.closes(ofRun(f.markers(topic, name), runOf(full)))
        .values()
        .forEach(c -> pairs.putAll(f.pairs(c)));
    return pairs;
  }

  /** The distinct keys of the row changes of a topic from the given offsets on. */
  private Set<String> changedKeysInTopic(String topic, TopicOffsets from) {
    Set<String> keys = new TreeSet<>();
    for (ConsumerRecord<byte[], byte[]> r : source.readAll(topic)) {
      if (!CaptureFixture.isMarker(r) && r.offset() >= from.offset(r.partition())) {
        keys.add(CaptureFixture.key(r));
      }
    }
    return keys;
  }

  private TopicOffsets completedOffsets(String task, TableName table) throws Exception {
    List<Object[]> rows =
        source.rows(
            "SELECT completed_offsets FROM repi.comparetables WHERE task = '"
                + task
                + "' AND table_name = '"
                + table.table()
                + "'");
    return Optional.ofNullable((String) rows.get(0)[0]).map(TopicOffsets::decode).orElse(null);
  }

  /** The run id and kind of a task's note row. */
  private List<Object> noteOf(String task) throws Exception {
    return List.of(
        source
            .rows("SELECT run_id, kind FROM repi.validatetables WHERE task = '" + task + "'")
            .get(0));
  }

  private Map<Integer, Long> endOffsets(String topic) throws Exception {
    return offsets(topic, org.apache.kafka.clients.admin.OffsetSpec.latest());
  }

  private Map<Integer, Long> earliestOffsets(String topic) throws Exception {
    return offsets(topic, org.apache.kafka.clients.admin.OffsetSpec.earliest());
  }

  private Map<Integer, Long> offsets(String topic, org.apache.kafka.clients.admin.OffsetSpec spec)
      throws Exception {
    Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < 3; p++) {
      request.put(new TopicPartition(topic, p), spec);
    }
    Map<Integer, Long> out = new TreeMap<>();
    admin
        .listOffsets(request)
        .all()
        .get()
        .forEach((tp, info) -> out.put(tp.partition(), info.offset()));
    return out;
  }

  private Map<Long, Marker> closes(String topic, String task, IncrementalRun.Summary summary) {
    return CompareFixture.closes(ofRun(f.markers(topic, task), summary.runId()));
  }

  private static String runOf(CompareRun.Summary full) {
    return full.tables().get(0).runId();
  }

  private static List<MarkerAt> ofRun(List<MarkerAt> markers, String runId) {
    return markers.stream().filter(m -> m.marker().getRunId().equals(runId)).toList();
  }
}
