package io.cdccompare.capture;

import static io.cdccompare.capture.CaptureFixture.count;
import static io.cdccompare.capture.CaptureFixture.header;
import static io.cdccompare.capture.CaptureFixture.isMarker;
import static io.cdccompare.capture.CaptureFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.source.SignalTable;
import io.cdccompare.source.TopicLayout;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The capture writes changes in per-key commit order and notes as markers into every partition. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
class CaptureIT {
  /**
   * A stack frame of Debezium's in a thread dump, as {@link StackTraceElement#toString} writes it:
   * {@code at io.debezium.…}, or {@code at app//io.debezium.…} when the class loader has a name
   * (the application class loader is {@code app}, as under Failsafe).
   */
  private static final Pattern DEBEZIUM_FRAME = Pattern.compile("\\bat (\\S*/)?io\\.debezium\\.");

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aCaptureStoppedTheMomentItStreamsEndsAndASecondStopReturnsAtOnce(EmbeddedEnvironment env)
      throws Exception {
    // Given a table (Debezium's engine could hang in run() when closed as its polling started)
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE quick (id int PRIMARY KEY)");
    for (int attempt = 1; attempt <= 3; attempt++) {
      CaptureFixture.Running running = f.start("public.quick");

      // When it is stopped the moment it streams
      long stopping = System.nanoTime();
      running.capture().stop();

      // Then its run ends (the engine's own stop, or the interrupt 10 s after it)
      running.run().get(60, TimeUnit.SECONDS);
      running.thread().shutdownNow();
      assertThat(running.capture().failure()).as("attempt " + attempt).isEmpty();

      // and a stop after the end returns at once (it used to retry the closed engine for 30 s)
      long again = System.nanoTime();
      running.capture().stop();
      assertThat(Duration.ofNanos(System.nanoTime() - again))
          .as("attempt %d, first stop took %d ms", attempt, (again - stopping) / 1_000_000)
          .isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void aStoppedCaptureLeavesNoKafkaAdminClientRunning(EmbeddedEnvironment env) throws Exception {
    // Given the admin clients alive before (other tests' are not this capture's)
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE idle (id int PRIMARY KEY)");
    Set<Thread> before = adminClientThreads();

    // When a capture streams, then is stopped
    try (CaptureFixture.Running capture = f.start("public.idle")) {
      // (its offset store's admin client runs while it streams: the one that used to be left)
      assertThat(names(adminClientThreads(), before)).isNotEmpty();
    }

    // Then no admin client it created is left
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(names(adminClientThreads(), before)).isEmpty());
  }

  @Test
  void aStopWhileTheBrokerIsFrozenReturnsBeforeItAnswersAndLosesNothing(EmbeddedEnvironment env)
      throws Exception {
    // Given a capture streaming a table whose first rows are on its topic
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE frozen (id int PRIMARY KEY, v int)");
    String topic = f.prefix + ".public.frozen";
    CaptureFixture.Running running = f.start("public.frozen");
    f.sql("INSERT INTO frozen SELECT g, 0 FROM generate_series(1, 20) g");
    f.read(topic, r -> r.size() >= 20);
    Logger log = (Logger) LoggerFactory.getLogger(Capture.class);
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    log.addAppender(warnings);
    AtomicBoolean thawedByWatchdog = new AtomicBoolean();
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    try {
      // And a broker that stops answering (frozen) while a change waits to be sent
      env.kafka().pause();
      watchdog.schedule(
          () -> {
            thawedByWatchdog.set(true);
            env.kafka().resume();
          },
          30,
          TimeUnit.SECONDS);
      f.sql("UPDATE frozen SET v = 1 WHERE id = 7");

      // When the capture is stopped (Debezium's own close waited 60-70 s here, measured 2026-12-05)
      running.capture().stop();

      // Then the stop returned while the broker was still frozen, saying that it interrupted the
      // engine; an engine that did not end even then is left, the warning naming where it waits
      assertThat(thawedByWatchdog).as("the broker was thawed before the stop returned").isFalse();
      List<String> said = warnings.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
      assertThat(said)
          .anyMatch(m -> m.contains("did not end 5 s after its stop was asked: its thread is"));
      String gaveUp = "did not end 7 s after its stop was asked: the stop gives up";
      if (said.stream().anyMatch(m -> m.contains(gaveUp))) {
        assertThat(said).anyMatch(m -> m.contains(gaveUp) && DEBEZIUM_FRAME.matcher(m).find());
      } else {
        // the engine ended within 7 s of its interrupt: its run returns with it, a moment after
        // the stop did (the stop waits for the engine's end, not for the run's future)
        await().atMost(Duration.ofSeconds(10)).until(() -> running.run().isDone());
      }
    } finally {
      log.detachAppender(warnings);
      watchdog.shutdownNow();
      env.kafka().resume(); // whatever failed, the next test gets a broker that answers
    }

    // And once the broker answers again the engine ends, and a capture started again sends the
    // change it had not sent: nothing is lost
    running.run().get(120, TimeUnit.SECONDS);
    running.thread().shutdownNow();
    try (CaptureFixture.Running again = f.start("public.frozen")) {
      List<ConsumerRecord<byte[], byte[]>> records =
          f.read(topic, r -> r.stream().anyMatch(CaptureIT::isTheFrozenUpdate));
      assertThat(records).anyMatch(CaptureIT::isTheFrozenUpdate);
    }
  }

  private static boolean isTheFrozenUpdate(ConsumerRecord<byte[], byte[]> r) {
    if (!"7".equals(key(r)) || r.value() == null || isMarker(r)) {
      return false;
    }
    try {
      return JSON.readTree(r.value()).path("payload").path("after").path("v").asInt() == 1;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The network threads of the live Kafka admin clients of this JVM. */
  private static Set<Thread> adminClientThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("kafka-admin-client-thread"))
        .collect(Collectors.toSet());
  }

  /**
   * The names of the threads in {@code now} that were not in {@code before}: threads, not names,
   * are compared, since an admin client left by an earlier capture has the same name.
   */
  private static List<String> names(Set<Thread> now, Set<Thread> before) {
    return now.stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
  }

  @Test
  void interleavedTransactionsArriveInPerKeyCommitOrderWithTombstones(EmbeddedEnvironment env)
      throws Exception {
    // Given
    CaptureFixture f = new CaptureFixture(env);
    f.sql(
        "CREATE TABLE t1 (id int PRIMARY KEY, v text)",
        "CREATE TABLE t2 (a text, b int, note text, PRIMARY KEY (a, b))");
    String t1 = TopicLayout.topicName(f.prefix, new TableName("public", "t1"));
    String t2 = TopicLayout.topicName(f.prefix, new TableName("public", "t2"));
    try (CaptureFixture.Running capture = f.start(f.captureConfig("public.t1,public.t2"));
        Connection first = f.connect();
        Connection second = f.connect();
        Statement s1 = first.createStatement();
        Statement s2 = second.createStatement()) {
      first.setAutoCommit(false);
      second.setAutoCommit(false);

      // When: two transactions committed in the opposite order to their start
      s1.execute("INSERT INTO t1 VALUES (1, 'first-started')");
      s1.execute("INSERT INTO t2 VALUES ('x,y', 1, 'composite')");
      s2.execute("INSERT INTO t1 VALUES (2, 'second-started')");
      second.commit();
      s1.execute("UPDATE t1 SET v = 'first-updated' WHERE id = 1");
      first.commit();
      s2.execute("UPDATE t1 SET v = 'second-updated' WHERE id = 2");
      s2.execute("DELETE FROM t1 WHERE id = 1");
      s2.execute("UPDATE t2 SET note = 'changed' WHERE a = 'x,y'");
      second.commit();

      // Then
      List<ConsumerRecord<byte[], byte[]>> records = f.read(t1, r -> r.size() >= 6);
      Map<String, List<String>> byKey = new LinkedHashMap<>();
      for (ConsumerRecord<byte[], byte[]> r : records) {
        byKey.computeIfAbsent(key(r), k -> new ArrayList<>()).add(describe(r));
        assertThat(r.partition()).isEqualTo(KeyPartitioner.partition(key(r), 3));
      }
      assertThat(byKey.get("1"))
          .containsExactly("c:first-started", "u:first-updated", "d:-", "tombstone");
      assertThat(byKey.get("2")).containsExactly("c:second-started", "u:second-updated");
      assertThat(commitLsn(first(records, "2"))).isLessThan(commitLsn(first(records, "1")) + 1);
      List<ConsumerRecord<byte[], byte[]>> composite = f.read(t2, r -> r.size() >= 2);
      assertThat(composite).extracting(CaptureFixture::key).containsOnly("x\\,y,1");
      assertThat(composite)
          .extracting(CaptureIT::describe)
          .containsExactly("c:composite", "u:changed");
      assertThat(capture.run()).isNotDone();
    }
  }

  private static ConsumerRecord<byte[], byte[]> first(
      List<ConsumerRecord<byte[], byte[]>> records, String key) {
    return records.stream().filter(r -> key.equals(key(r))).findFirst().orElseThrow();
  }

  private static long commitLsn(ConsumerRecord<byte[], byte[]> r) {
    return Long.parseLong(header(r, ChangeHeaders.COMMIT_LSN));
  }

  static String describe(ConsumerRecord<byte[], byte[]> r) {
    if (r.value() == null) {
      return "tombstone";
    }
    try {
      JsonNode payload = JSON.readTree(r.value()).path("payload");
      String op = payload.path("op").asText();
      JsonNode after = payload.path("after");
      String text =
          after.isNull()
              ? "-"
              : after.has("v") ? after.path("v").asText() : after.path("note").asText();
      return op + ":" + text;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aNoteBecomesAMarkerInEveryPartitionAfterEveryEarlierChange(EmbeddedEnvironment env)
      throws Exception {
    // Given
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(10,2))");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "orders"));
    try (CaptureFixture.Running capture = f.start(f.captureConfig("public.orders"))) {

      // When: 30 changes, then a CLOSE note
      f.sql("INSERT INTO orders SELECT g, g * 1.5 FROM generate_series(1, 30) g");
      f.sql(
          "INSERT INTO repi.validatetables (task, table_schema, table_name, run_id, chunk, phase,"
              + " deep, first_key, last_key, chunk_rows, compared_rows, hashes_topic, hash_locations,"
              + " column_fingerprint) VALUES ('t', 'public', 'orders', 'run-1', 1, 'CLOSE', 100,"
              + " '1', '30', 30, 30, 'h', '[{\"tablePartition\":0,\"hashesPartition\":0,\"offset\":7}]', 'fp')");

      // Then
      List<ConsumerRecord<byte[], byte[]>> records =
          f.read(topic, r -> count(r, CaptureFixture::isMarker) >= 3);
      assertThat(count(records, r -> !isMarker(r))).isEqualTo(30);
      try (SpecificAvroDeserializer<Marker> markers = deserializer(env, Marker.class)) {
        for (int p = 0; p < 3; p++) {
          int partition = p;
          List<ConsumerRecord<byte[], byte[]>> inPartition =
              records.stream().filter(r -> r.partition() == partition).toList();
          ConsumerRecord<byte[], byte[]> last = inPartition.get(inPartition.size() - 1);
          assertThat(isMarker(last)).as("last record of partition %d is the marker", p).isTrue();
          assertThat(count(inPartition, CaptureFixture::isMarker)).isEqualTo(1);
          Marker marker = markers.deserialize(topic, MarkerEnvelope.unwrap(last.value()));
          assertThat(marker.getPartition()).isEqualTo(p);
          assertThat(marker.getPartitionCount()).isEqualTo(3);
          assertThat(marker.getPhase()).isEqualTo(MarkerPhase.CLOSE);
          assertThat(marker.getChunk()).isEqualTo(1);
          assertThat(marker.getTable()).isEqualTo("public.orders");
          assertThat(marker.getLastKey()).isEqualTo("30");
          assertThat(marker.getHashRecords()).hasSize(1);
          assertThat(marker.getHashRecords().get(0).getOffset()).isEqualTo(7);
        }
      }
    }
  }

  @Test
  void aMalformedNoteIsNamedWithAnAlertNoMarkerIsWrittenAndTheCaptureGoesOn(EmbeddedEnvironment env)
      throws Exception {
    // Given a capture of a table
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(10,2))");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "orders"));
    Map<String, String> config = f.captureConfig("public.orders");
    String alertsTopic = CaptureConfig.of(config).alertsTopic();
    try (CaptureFixture.Running capture = f.start(config)) {

      // When a note is written by hand with a malformed body (hash_locations is no JSON), and
      // after it 10 changes and a well-formed note
      f.sql("INSERT INTO orders SELECT g, g * 1.5 FROM generate_series(1, 5) g");
      f.sql(
          "INSERT INTO repi.validatetables (task, table_schema, table_name, run_id, chunk, phase,"
              + " deep, first_key, last_key, chunk_rows, compared_rows, hashes_topic, hash_locations,"
              + " column_fingerprint) VALUES ('by-hand', 'public', 'orders', 'run-x', 4, 'CLOSE',"
              + " 100, '1', '5', 5, 5, 'h', '{oops', 'fp')");
      f.sql("INSERT INTO orders SELECT g, g * 1.5 FROM generate_series(6, 15) g");
      f.sql(
          "INSERT INTO repi.validatetables (task, table_schema, table_name, run_id, chunk, phase,"
              + " deep, first_key, last_key, chunk_rows, compared_rows, hashes_topic, hash_locations,"
              + " column_fingerprint) VALUES ('t', 'public', 'orders', 'run-1', 1, 'CLOSE', 100,"
              + " '1', '15', 15, 15, 'h', '[]', 'fp')");

      // Then an alert names the note and the column at fault, with its source position
      List<ConsumerRecord<byte[], byte[]>> alerts = f.read(alertsTopic, r -> r.size() >= 1);
      try (SpecificAvroDeserializer<Alert> read = deserializer(env, Alert.class)) {
        Alert alert = read.deserialize(alertsTopic, alerts.get(0).value());
        assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
        assertThat(alert.getOrigin()).isEqualTo("capture");
        assertThat(alert.getTask()).isEqualTo("by-hand");
        assertThat(alert.getTable()).isEqualTo("public.orders");
        assertThat(alert.getMessage())
            .contains(
                "note of task by-hand on table public.orders (run run-x, chunk 4, phase CLOSE)")
            .contains("hash_locations")
            .contains("at source lsn ")
            .contains("no marker written");
        assertThat(alerts).hasSize(1);
      }

      // and the capture goes on: every change after it arrives, and only the well-formed note
      // became markers (one per partition, of run-1)
      List<ConsumerRecord<byte[], byte[]>> records =
          f.read(
              topic,
              r -> count(r, CaptureFixture::isMarker) >= 3 && count(r, x -> !isMarker(x)) >= 15);
      assertThat(count(records, r -> !isMarker(r))).isEqualTo(15);
      assertThat(count(records, CaptureFixture::isMarker)).isEqualTo(3);
      try (SpecificAvroDeserializer<Marker> markers = deserializer(env, Marker.class)) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
          if (isMarker(r)) {
            assertThat(markers.deserialize(topic, MarkerEnvelope.unwrap(r.value())).getRunId())
                .isEqualTo("run-1");
          }
        }
      }
      assertThat(capture.run().isDone()).as("the capture still runs").isFalse();
    }
  }

  @Test
  void aSignalReSendsItsRowsWithTheResendHeaderIsNeverForwardedAndItsNoticesArrive(
      EmbeddedEnvironment env) throws Exception {
    // Given a captured table with 5 rows written by the capture's stream
    CaptureFixture f = new CaptureFixture(env);
    f.sql("CREATE TABLE items (id int PRIMARY KEY, v text)");
    String topic = TopicLayout.topicName(f.prefix, new TableName("public", "items"));
    String notices = CaptureNotices.topic(f.prefix);
    try (CaptureFixture.Running capture = f.start(f.captureConfig("public.items"))) {
      f.sql("INSERT INTO items SELECT g, 'v' || g FROM generate_series(1, 5) g");
      f.read(topic, r -> r.size() >= 5);

      // When an execute-snapshot signal for keys 2 and 4 is inserted into the signal table
      f.sql(
          "INSERT INTO repi.signals VALUES ('sig-1', 'execute-snapshot', '{\"type\":\"incremental\","
              + "\"data-collections\":[\"public\\\\.items\"],\"additional-conditions\":"
              + "[{\"data-collection\":\"public\\\\.items\",\"filter\":\"id IN (2, 4)\"}]}')");

      // Then the notices topic gets the snapshot's notices under the signal id, ending COMPLETED
      List<ConsumerRecord<byte[], byte[]>> read =
          f.read(notices, r -> r.stream().anyMatch(n -> type(n).equals("COMPLETED")));
      List<ConsumerRecord<byte[], byte[]>> incremental =
          read.stream().filter(CaptureIT::isIncrementalSnapshot).toList();
      assertThat(incremental).extracting(CaptureFixture::key).containsOnly("sig-1");
      assertThat(incremental).extracting(CaptureIT::type).contains("STARTED", "COMPLETED");
      // And keys 2 and 4 came again as snapshot reads with the re-send header, the stream's own
      // records without it
      List<ConsumerRecord<byte[], byte[]>> records = f.read(topic, r -> r.size() >= 7);
      assertThat(records).hasSize(7);
      List<ConsumerRecord<byte[], byte[]>> resent =
          records.stream().filter(r -> header(r, ChangeHeaders.RESEND) != null).toList();
      assertThat(resent).extracting(CaptureFixture::key).containsExactlyInAnyOrder("2", "4");
      assertThat(resent).allMatch(r -> "r".equals(header(r, ChangeHeaders.OP)));
      assertThat(records.stream().filter(r -> "c".equals(header(r, ChangeHeaders.OP))))
          .allMatch(r -> header(r, ChangeHeaders.RESEND) == null);
      // And the signal table's rows (the signal, the snapshot's watermarks) went to no topic
      assertThat(f.rows("SELECT count(*) FROM repi.signals").get(0)[0])
          .satisfies(n -> assertThat(((Number) n).longValue()).isGreaterThan(1));
      String signalTopic = TopicLayout.topicName(f.prefix, SignalTable.NAME);
      try (org.apache.kafka.clients.admin.Admin admin =
          org.apache.kafka.clients.admin.Admin.create(
              Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
        assertThat(admin.listTopics().names().get()).contains(notices).doesNotContain(signalTopic);
      }
      assertThat(capture.run()).isNotDone();
    }
  }

  private static boolean isIncrementalSnapshot(ConsumerRecord<byte[], byte[]> notice) {
    try {
      return CaptureNotices.INCREMENTAL_SNAPSHOT.equals(
          JSON.readTree(notice.value()).path(CaptureNotices.AGGREGATE_TYPE).asText());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String type(ConsumerRecord<byte[], byte[]> notice) {
    try {
      return JSON.readTree(notice.value()).path(CaptureNotices.TYPE).asText();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** A deserializer of {@code type} values on the environment's registry. */
  private static <T extends SpecificRecord> SpecificAvroDeserializer<T> deserializer(
      EmbeddedEnvironment env, Class<T> type) {
    SpecificAvroDeserializer<T> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            env.registry().confluentApiUrl(),
            SpecificAvroDeserializer.VALUE_TYPE,
            type.getName()),
        false);
    return values;
  }
}
