package io.cdccompare.producer.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.ChangeHeaders;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.source.TopicLayout;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A running capture re-sends exactly the keys asked for, as op {@code r} records with the {@code
 * cdc.resend} header, and the call returns once the capture reports the snapshot completed.
 */
@WithEmbedded({Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyResendIT {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KeyResendIT.class);
  private static final TableName PAIRS = new TableName("public", "pairs");
  private static final TableName MANY = new TableName("public", "many");
  private static final TableName TYPED = new TableName("public", "typed");
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final List<String> TYPED_KEY =
      List.of("i2", "i8", "dec", "f4", "f8", "b", "ch", "vc", "by", "u", "d", "t", "ts", "tz");

  private EmbeddedEnvironment env;
  private CaptureFixture source;
  private CaptureFixture.Running capture;
  private KeyResend resend;

  @BeforeAll
  void captureTables(EmbeddedEnvironment env) throws Exception {
    this.env = env;
    source = new CaptureFixture(env);
    source.sql(
        "CREATE TABLE pairs (name text, n int, v text NOT NULL, PRIMARY KEY (name, n))",
        "INSERT INTO pairs VALUES ('a,b', 1, 'comma'), ('it''s', 2, 'quote'),"
            + " ('back\\slash', 3, 'backslash'), ('plain', 4, 'plain')",
        "CREATE TABLE many (id int PRIMARY KEY, v text NOT NULL)",
        "INSERT INTO many SELECT g, 'v' || g FROM generate_series(1, 2000) g",
        "CREATE TABLE typed (i2 smallint, i8 bigint, dec numeric(12,3), f4 real,"
            + " f8 double precision, b boolean, ch char(4), vc varchar(8), by bytea, u uuid,"
            + " d date, t time, ts timestamp(3), tz timestamptz, v text,"
            + " PRIMARY KEY (i2, i8, dec, f4, f8, b, ch, vc, by, u, d, t, ts, tz))",
        "CREATE TABLE dated (d date PRIMARY KEY)");
    capture = source.start("public.pairs, public.many, public.typed");
    resend = KeyResend.of(env.kafka().bootstrapServers(), source.prefix);
  }

  @AfterAll
  void stopCapture() throws Exception {
    capture.close();
  }

  @Test
  void exactlyTheExistingKeysAskedForAreReSentAndTheCallReturnsAfterCompleted() throws Exception {
    // Given a composite (text, integer) key table and three keys: two on the source, one not
    String topic = TopicLayout.topicName(source.prefix, PAIRS);
    Map<Integer, Long> before = ends(topic);
    List<String> keys = List.of("a\\,b,1", "it's,2", "gone,9");

    // When they are re-sent
    KeyResend.Resent done;
    try (Connection c = source.connect()) {
      done = resend.resend(c, PAIRS, List.of("name", "n"), keys, TIMEOUT);
    }

    // Then the call saw the snapshot complete, having found two of the keys
    assertThat(done.table()).isEqualTo(PAIRS);
    assertThat(done.keys()).isEqualTo(3);
    assertThat(done.found()).isEqualTo(2);
    assertThat(done.rowsScanned()).hasValue(2);
    assertThat(
            source.rows("SELECT count(*) FROM repi.signals WHERE id = '" + done.signalId() + "'"))
        .first()
        .satisfies(row -> assertThat(((Number) row[0]).longValue()).isEqualTo(1));
    // And exactly the two existing keys came as re-sent snapshot reads, nothing else
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> assertThat(keysSince(topic, before)).containsExactly("a\\,b,1", "it's,2"));
    List<ConsumerRecord<byte[], byte[]>> sent = since(topic, before);
    assertThat(sent).hasSize(2);
    assertThat(sent)
        .allSatisfy(
            r -> {
              assertThat(CaptureFixture.header(r, ChangeHeaders.OP)).isEqualTo("r");
              assertThat(CaptureFixture.header(r, ChangeHeaders.RESEND)).isEqualTo("1");
            });
  }

  @Test
  void aThousandKeysAreReSentWithOneSignal() throws Exception {
    // Given 1 000 of the 2 000 keys of many, every other one
    String topic = TopicLayout.topicName(source.prefix, MANY);
    Map<Integer, Long> before = ends(topic);
    List<String> keys =
        IntStream.rangeClosed(1, 1000).mapToObj(i -> Integer.toString(2 * i)).toList();

    // When they are re-sent at once
    KeyResend.Resent done;
    try (Connection c = source.connect()) {
      done = resend.resend(c, MANY, List.of("id"), keys, TIMEOUT);
    }

    // Then all of them, and only them, came back re-sent
    System.out.printf(
        "re-sent %d keys of %s in %d ms%n", done.keys(), MANY, done.elapsed().toMillis());
    assertThat(done.found()).isEqualTo(1000);
    assertThat(done.rowsScanned()).hasValue(1000);
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(keysSince(topic, before)).hasSize(1000));
    assertThat(keysSince(topic, before)).isEqualTo(new TreeSet<>(keys));
    assertThat(since(topic, before))
        .allMatch(r -> "1".equals(CaptureFixture.header(r, ChangeHeaders.RESEND)));
  }

  @Test
  void theCanonicalKeyOfEverySupportedTypeFindsItsRowOnTheSource() throws Exception {
    // Given rows whose 14-column key holds every key type, edge values included (not
    // numeric NaN
    // nor timestamp infinity: the capture does not write them as their canonical text), and the
    // canonical keys the capture wrote for them
    String topic = TopicLayout.topicName(source.prefix, TYPED);
    source.sql(
        "INSERT INTO typed VALUES (1, 9007199254740993, 12.5, 0.1, 1e-7, true, 'ab', 'x''y\\z',"
            + " '\\x00ff', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2024-02-29', '24:00:00',"
            + " '2024-01-01 10:00:00.123', '2024-06-01 12:00:00.5+02', 'one')",
        "INSERT INTO typed VALUES (-32768, -1, 99999999.999, 'Infinity', '-Infinity', false, 'a   ',"
            + " '', '\\x', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '1066-10-14', '00:00:00',"
            + " '1999-12-31 23:59:59', '-infinity', 'two')",
        "INSERT INTO typed VALUES (0, 0, -0.001, 3.4e38, 1.7976931348623157e308, true, 'zzzz',"
            + " 'ü,\\,', '\\x2c5c', '00000000-0000-0000-0000-000000000000', '10000-01-01',"
            + " '23:59:59.999999', '0001-01-01 00:00:00 BC', '1970-01-01 00:00:00+00', 'three')");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(source.readAll(topic)).hasSize(3));
    List<String> keys = source.readAll(topic).stream().map(CaptureFixture::key).toList();
    Map<Integer, Long> before = ends(topic);

    // When those keys are re-sent
    KeyResend.Resent done;
    try (Connection c = source.connect()) {
      done = resend.resend(c, TYPED, TYPED_KEY, keys, TIMEOUT);
    }

    // Then each key found its row, and each row came back under the same key
    assertThat(done.found()).isEqualTo(3);
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(keysSince(topic, before)).isEqualTo(new TreeSet<>(keys)));
  }

  @Test
  void aDateKeyBeforeYearOneIsRefusedBeforeAnySignal() throws Exception {
    // Given a date key before year 1, which Debezium 3.6's snapshot read gives without its era
    TableName dated = new TableName("public", "dated");
    source.sql("INSERT INTO dated VALUES ('0044-03-15 BC')");

    // When it is re-sent
    // Then it is refused naming the table and the key, and no signal was sent
    try (Connection c = source.connect()) {
      assertThatThrownBy(
              () ->
                  resend.resend(c, dated, List.of("d"), List.of("-0043-03-15"), "sig-bc", TIMEOUT))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("public.dated")
          .hasMessageContaining("-0043-03-15")
          .hasMessageContaining("before year 1");
    }
    assertThat(source.rows("SELECT id FROM repi.signals WHERE id = 'sig-bc'")).isEmpty();
  }

  @Test
  void withTheCaptureStoppedTheCallTimesOutSayingSoAndTheSignalStays() throws Exception {
    // Given a capture of its own database that ran once (its topics exist) and is stopped now
    CaptureFixture stopped = new CaptureFixture(env);
    stopped.sql("CREATE TABLE lone (id int PRIMARY KEY)", "INSERT INTO lone VALUES (1)");
    stopped.start("public.lone").close();
    TableName lone = new TableName("public", "lone");
    KeyResend toStopped = KeyResend.of(env.kafka().bootstrapServers(), stopped.prefix);

    // When a key is re-sent with a short timeout
    // Then it times out naming the table, the signal, the notices topic and the likely cause
    try (Connection c = stopped.connect()) {
      assertThatThrownBy(
              () ->
                  toStopped.resend(
                      c, lone, List.of("id"), List.of("1"), "sig-stopped", Duration.ofSeconds(3)))
          .isInstanceOfSatisfying(
              KeyResendException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(KeyResendException.Reason.TIMED_OUT);
                assertThat(e.table()).isEqualTo(lone);
                assertThat(e.signalId()).isEqualTo("sig-stopped");
                assertThat(e.getMessage())
                    .contains("public.lone")
                    .contains("sig-stopped")
                    .contains(CaptureNotices.topic(stopped.prefix))
                    .contains("is the capture running?")
                    .contains("may still complete");
              });
    }
    assertThat(stopped.rows("SELECT type FROM repi.signals WHERE id = 'sig-stopped'"))
        .extracting(row -> row[0])
        .containsExactly("execute-snapshot");
  }

  @Test
  void aWriterHoldingTheTablePastTheFenceWaitFailsTheReSendNamingItAndTheSetting()
      throws Exception {
    // Given a session that updated a row of the table and stays idle in its transaction
    KeyResend briefFence =
        KeyResend.of(env.kafka().bootstrapServers(), source.prefix, Duration.ofMillis(300));
    try (Connection writer = source.connect();
        Connection c = source.connect()) {
      writer.setAutoCommit(false);
      writer.createStatement().execute("UPDATE many SET v = 'held' WHERE id = 7");
      int pid = pid(writer);

      // When a key of that table is re-sent with a fence wait shorter than that transaction
      // Then the snapshot completes, but the re-send fails saying its window opened unfenced,
      // naming the session that held the table and the setting
      assertThatThrownBy(
              () -> briefFence.resend(c, MANY, List.of("id"), List.of("8"), "sig-held", TIMEOUT))
          .isInstanceOfSatisfying(
              KeyResendException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(KeyResendException.Reason.UNFENCED);
                assertThat(e.getMessage())
                    .contains("public.many")
                    .contains("sig-held")
                    .contains("pid " + pid + " (idle in transaction")
                    .contains("300 ms (read.visibility.timeout.ms)");
              });
      writer.rollback();
    }
    // And its fence row is gone: later windows lock nothing for it
    assertThat(source.rows("SELECT signal_id FROM repi.resend_fences")).isEmpty();
  }

  @Test
  void aWindowWaitsForTheTablesWriterAndReadsWhatItCommitted() throws Exception {
    // Given a session that updated a row of the table and stays in its transaction
    try (Connection writer = source.connect();
        Connection c = source.connect()) {
      writer.setAutoCommit(false);
      writer.createStatement().execute("UPDATE many SET v = 'committed late' WHERE id = 9");
      String topic = TopicLayout.topicName(source.prefix, MANY);
      Map<Integer, Long> before = ends(topic);

      // When key 9 is re-sent, and the writer commits once the snapshot's window waits for it
      var done =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return resend.resend(c, MANY, List.of("id"), List.of("9"), TIMEOUT);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      await()
          .atMost(TIMEOUT)
          .until(() -> !source.rows("SELECT 1 FROM pg_locks WHERE NOT granted").isEmpty());
      assertThat(done).isNotDone();
      writer.commit();

      // Then the re-send completes and its row is the committed one
      assertThat(done.get(60, java.util.concurrent.TimeUnit.SECONDS).found()).isEqualTo(1);
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(since(topic, before))
                      .filteredOn(r -> "r".equals(CaptureFixture.header(r, ChangeHeaders.OP)))
                      .singleElement()
                      .satisfies(
                          r ->
                              assertThat(new String(r.value(), StandardCharsets.UTF_8))
                                  .as("the value's bytes (Avro writes a string as UTF-8)")
                                  .contains("committed late")));
    }
  }

  @Test
  void withoutTheFenceTriggerTheReSendIsRefusedBeforeAnySignal() throws Exception {
    // Given the signal table's fence trigger disabled
    source.sql("ALTER TABLE repi.signals DISABLE TRIGGER fence_resend_window");
    try (Connection c = source.connect()) {
      // When a key is re-sent
      // Then it is refused naming the trigger and what installs it, and nothing is sent
      assertThatThrownBy(
              () ->
                  resend.resend(
                      c, PAIRS, List.of("name", "n"), List.of("plain,4"), "sig-nofence", TIMEOUT))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("public.pairs")
          .hasMessageContaining("fence_resend_window")
          .hasMessageContaining("start the capture of this version once");
    } finally {
      source.sql("ALTER TABLE repi.signals ENABLE TRIGGER fence_resend_window");
    }
    assertThat(source.rows("SELECT id FROM repi.signals WHERE id = 'sig-nofence'")).isEmpty();
  }

  private static int pid(Connection c) throws java.sql.SQLException {
    try (var s = c.createStatement();
        var rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private Map<Integer, Long> ends(String topic) {
    Map<Integer, Long> ends = new java.util.HashMap<>(Map.of(0, 0L, 1, 0L, 2, 0L));
    for (ConsumerRecord<byte[], byte[]> r : source.readAll(topic)) {
      ends.merge(r.partition(), r.offset() + 1, Math::max);
    }
    return ends;
  }

  private List<ConsumerRecord<byte[], byte[]>> since(String topic, Map<Integer, Long> from) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : source.readAll(topic)) {
      if (r.offset() >= from.get(r.partition()) && !CaptureFixture.isMarker(r)) {
        out.add(r);
      }
    }
    return out;
  }

  private Set<String> keysSince(String topic, Map<Integer, Long> from) {
    Set<String> keys = new TreeSet<>();
    since(topic, from).forEach(r -> keys.add(CaptureFixture.key(r)));
    return keys;
  }
}
