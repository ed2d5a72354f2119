package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportTopics;
import io.cdccompare.report.aggregate.ReportTopologyFactory;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.SourcePosition;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's bad records on the real broker, a real capture and a real PostgreSQL target, with the
 * report aggregation running beside the verifier as {@code cdc-compare verify} runs it. The source
 * holds {@code items} 1..300 without 50, 150 and 250; the target holds those three rows too,
 * written on it directly: one real extra row in each chunk of a compare at chunk=100, deep=100, so
 * a chunk that is judged shows a difference and one that cannot be judged must not.
 *
 * <ul>
 *   <li>a hash record truncated on the hashes topic, a hash record deleted from it, and a CLOSE of
 *       a task no compare ran: the chunk is {@code UNVERIFIABLE} in the partition, naming the
 *       record's place and why, never different; an {@code UNVERIFIABLE} alert; the partition goes
 *       on;
 *   <li>a marker record whose body is malformed (not an Avro marker, a phase other than its header,
 *       a copy of another partition): the partition stops naming topic, partition and offset,
 *       nothing after it is applied, an {@code UNVERIFIABLE} alert.
 * </ul>
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class BadRecordsIT {
  private static final TableName ITEMS = new TableName("public", "items");
  private static final KeyCodec KEYS = new KeyCodec(List.of(LogicalType.INTEGER));
  private static final int PARTITIONS = 3;
  private static final Duration WAIT = Duration.ofSeconds(90);

  @Test
  void aTruncatedHashRecordMakesItsChunkUnverifiableNamingItsPlaceNeverDifferent(
      EmbeddedEnvironment env) throws Exception {
    try (Pipeline p = Pipeline.start(env, "trunc", true)) {
      // Given a compare whose last chunk found row 250 extra in its partition
      CompareRun.TableDone done = p.compare("full");
      int extraPartition = partitionOf(250);
      ChunkResult judged = p.result(done.runId(), 2, extraPartition);
      assertThat(judged.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(judged.getExtraKeys()).containsExactly(KEYS.encode(List.of(250)));

      // When the task's last chunk is noted again by hand under a new run, its hash records
      // copied to the hashes topic, the one of that partition cut to half its bytes
      String run = "hand-" + UUID.randomUUID();
      Map<Integer, byte[]> copies = new TreeMap<>();
      for (HashRecord record : p.hashRecords(done.runId(), 2)) {
        record.setRunId(run);
        copies.put(record.getTablePartition(), p.serialize(record));
      }
      byte[] whole = copies.get(extraPartition);
      copies.put(extraPartition, Arrays.copyOf(whole, whole.length / 2));
      Map<Integer, long[]> offsets = new TreeMap<>();
      for (Map.Entry<Integer, byte[]> copy : copies.entrySet()) {
        String key = run + "/" + copy.getKey(); // a compacted topic takes keyed records only
        offsets.put(copy.getKey(), new long[] {0, p.send(p.hashesTopic, key, copy.getValue())});
      }
      String truncatedAt = p.hashesTopic + "-0@" + offsets.get(extraPartition)[1];
      p.renote("full", run, offsets);

      // Then the chunk is UNVERIFIABLE in that partition, naming the record and that it cannot
      // be read, and row 250 is not reported; the other partitions are judged from their copies
      ChunkResult truncated = p.result(run, 2, extraPartition);
      assertThat(truncated.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(truncated.getError())
          .contains("the hash record at " + truncatedAt + " cannot be read");
      assertThat(truncated.getExtraKeys()).isEmpty();
      assertThat(truncated.getCounts().getFailed() + truncated.getCounts().getExtra()).isZero();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        if (partition != extraPartition) {
          ChunkResult other = p.result(run, 2, partition);
          assertThat(other.getState()).as("partition %s", partition).isEqualTo(ChunkState.VERIFIED);
          assertThat(other.getCounts().getMatched()).isPositive();
        }
      }

      // And an UNVERIFIABLE alert names the chunk and the record
      Alert alert = p.alert(a -> run.equals(a.getRunId()));
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getMessage()).contains(truncatedAt, "cannot be read");

      // And the partition goes on: changes after the marker are applied, the report still runs
      p.changesAfterAreApplied();
      p.requireHealthy();
    }
  }

  @Test
  void aDeletedHashRecordMakesItsChunkUnverifiableNamingItsPlaceNeverDifferent(
      EmbeddedEnvironment env) throws Exception {
    try (Pipeline p = Pipeline.start(env, "del", false)) {
      // Given a compare run while no verifier runs (its CLOSE markers wait in the table topic)
      CompareRun.TableDone done = p.compare("full");
      assertThat(done.chunks()).isEqualTo(3);

      // When chunk 0's hash records are deleted from the hashes topic before any CLOSE is read
      Map<TopicPartition, Long> chunk0 = p.deleteChunkHashRecords(done.runId(), 0);
      assertThat(chunk0).isNotEmpty();
      p.startVerifier();

      // Then chunk 0 is UNVERIFIABLE in every partition, naming its record as gone, and its
      // extra row 50 is not reported; chunks 1 and 2 are judged and find 150 and 250
      Set<String> extra = new HashSet<>();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        ChunkResult lost = p.result(done.runId(), 0, partition);
        assertThat(lost.getState()).as("chunk 0/%s", partition).isEqualTo(ChunkState.UNVERIFIABLE);
        assertThat(lost.getError())
            .as("chunk 0/%s", partition)
            .containsPattern(
                "the hash record at "
                    + p.hashesTopic.replace(".", "\\.")
                    + "-\\d+@\\d+ is gone \\(deleted: the hashes partition now starts at offset"
                    + " \\d+\\)");
        assertThat(lost.getCounts().getExtra() + lost.getCounts().getFailed()).isZero();
        for (int chunk = 1; chunk <= 2; chunk++) {
          ChunkResult judged = p.result(done.runId(), chunk, partition);
          assertThat(judged.getState()).isEqualTo(ChunkState.VERIFIED);
          extra.addAll(judged.getExtraKeys());
        }
      }
      assertThat(extra)
          .containsExactlyInAnyOrder(KEYS.encode(List.of(150)), KEYS.encode(List.of(250)));

      // And an UNVERIFIABLE alert names chunk 0 and its lost record
      Alert alert = p.alert(a -> done.runId().equals(a.getRunId()) && a.getChunk() == 0);
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getMessage()).contains("the hash record at " + p.hashesTopic, "is gone");

      // And the partitions go on
      p.changesAfterAreApplied();
      p.requireHealthy();
    }
  }

  @Test
  void aMarkerOfAnUnknownTaskIsUnverifiableNamingWhyAndTheStreamGoesOn(EmbeddedEnvironment env)
      throws Exception {
    try (Pipeline p = Pipeline.start(env, "ghost", true)) {
      // Given a compare of task "full" whose last chunk found row 250 extra
      CompareRun.TableDone done = p.compare("full");
      int extraPartition = partitionOf(250);
      assertThat(p.result(done.runId(), 2, extraPartition).getExtraKeys())
          .containsExactly(KEYS.encode(List.of(250)));

      // When a note of task "ghost", which no compare ever ran, is written by hand as a CLOSE
      // without an OPEN: its partition 0 points past the end of the hashes topic, the others at
      // the hash records of task "full"
      Map<Integer, long[]> offsets = p.locationsOf(done.runId(), 2);
      long pastTheEnd = p.endOffset(p.hashesTopic, 0) + 1_000;
      offsets.put(0, new long[] {0, pastTheEnd});
      p.source.sql(
          "CREATE TEMP TABLE ghost AS SELECT * FROM repi.validatetables WHERE task = 'full'",
          "UPDATE ghost SET task = 'ghost', run_id = 'ghost-run', phase = 'CLOSE',"
              + " hash_locations = '"
              + locations(offsets)
              + "'",
          "INSERT INTO repi.validatetables SELECT * FROM ghost");

      // Then every partition's chunk is UNVERIFIABLE saying why, none finds row 250
      ChunkResult missing = p.result("ghost-run", 2, 0);
      assertThat(missing.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(missing.getError())
          .contains("no hash record at " + p.hashesTopic + "-0@" + pastTheEnd + " within");
      for (int partition = 1; partition < PARTITIONS; partition++) {
        ChunkResult other = p.result("ghost-run", 2, partition);
        assertThat(other.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
        assertThat(other.getError())
            .contains(
                "belongs to task full run " + done.runId(), "not to the chunk of this marker");
      }
      for (int partition = 0; partition < PARTITIONS; partition++) {
        ChunkResult r = p.result("ghost-run", 2, partition);
        assertThat(r.getExtraKeys()).isEmpty();
        assertThat(r.getCounts().getMatched() + r.getCounts().getExtra()).isZero();
      }

      // And an UNVERIFIABLE alert names the task and the reason
      Alert alert = p.alert(a -> "ghost".equals(a.getTask()));
      assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
      assertThat(alert.getRunId()).isEqualTo("ghost-run");
      assertThat(alert.getMessage())
          .containsAnyOf("no hash record at " + p.hashesTopic, "belongs to task full");

      // And the partitions go on: it was no poison record
      p.changesAfterAreApplied();
      p.requireHealthy();
    }
  }

  @Test
  void aMarkerRecordWithAMalformedBodyStopsItsPartitionNamingItsPlace(EmbeddedEnvironment env)
      throws Exception {
    // A marker value that is no Avro marker, a marker whose phase is not its header's, and a
    // marker copy of partition 1 in partition 0: each in its own table, before later changes
    String[] tables = {"items_a", "items_b", "items_c"};
    String[] expected = {
      "as io.cdccompare.schemas.avro.Marker: the Avro body is truncated",
      "marker header says CLOSE but the marker is OPEN",
      "the marker copy of partition 1 is in the wrong partition"
    };
    CaptureFixture source = new CaptureFixture(env);
    JdbcServer target = env.targetPostgres();
    String database = target.createDatabase("malformed_" + source.prefix);
    for (String table : tables) {
      source.sql("CREATE TABLE " + table + " (id int PRIMARY KEY, name text)");
      try (Connection c = target.connect(database);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text)");
      }
    }
    SpecificAvroSerializer<Marker> avro = new SpecificAvroSerializer<>();
    avro.configure(Map.of("schema.registry.url", env.registry().confluentApiUrl()), false);
    try (CaptureFixture.Running capture = source.start(String.join(", ", qualified(tables)))) {
      for (int i = 0; i < tables.length; i++) {
        String name = tables[i];
        TableName table = new TableName("public", name);
        String topic = TableTopics.topicName(source.prefix, table);
        VerifierSettings settings =
            VerifierSettings.builder("malformed")
                .applicationId("verify-" + source.prefix + "-" + name)
                .bootstrapServers(env.kafka().bootstrapServers())
                .registryUrl(env.registry().confluentApiUrl())
                .topicPrefix(source.prefix)
                .table(table)
                .target(target.jdbcUrl(database), target.user(), target.password())
                .applyBatchSize(50)
                .applyMaxDelay(Duration.ofMillis(100))
                .streamsProperty("commit.interval.ms", "200")
                .build();
        try (VerifierApp app =
            VerifierApp.start(settings, CommitAudit.of(settings, target, database, table))) {
          // Given 100 rows applied
          source.sql("INSERT INTO " + name + " SELECT g, 'n' || g FROM generate_series(1, 100) g");
          await("100 rows of " + name + " applied")
              .atMost(WAIT)
              .untilAsserted(
                  () -> {
                    app.requireHealthy();
                    assertThat(count(target, database, name)).isEqualTo(100);
                  });

          // When a marker record with a malformed body lands in partition 0, then more changes
          Marker marker =
              Marker.newBuilder()
                  .setTask("hand")
                  .setRunId("hand-run")
                  .setTaskKind(TaskKind.FULL)
                  .setSourcePosition(
                      SourcePosition.newBuilder()
                          .setCommitLsn(1)
                          .setEventLsn(1)
                          .setTxId(1L)
                          .build())
                  .setNotedAt(java.time.Instant.now())
                  .setTable(table.toString())
                  .setTopic(topic)
                  .setChunk(0)
                  .setPhase(i == 1 ? MarkerPhase.OPEN : MarkerPhase.CLOSE)
                  .setColumnFingerprint("")
                  .setDeep(100)
                  .setPartition(i == 2 ? 1 : 0)
                  .setPartitionCount(PARTITIONS)
                  .build();
          byte[] body = MarkerEnvelope.wrap(avro.serialize(topic, marker));
          if (i == 0) {
            byte[] wire = avro.serialize(topic, marker);
            body = MarkerEnvelope.wrap(Arrays.copyOf(wire, wire.length / 2));
          }
          long bad = send(env, topic, "CLOSE", body);
          source.sql(
              "INSERT INTO " + name + " SELECT g, 'n' || g FROM generate_series(101, 400) g");

          // Then the verifier stops naming topic, partition and offset, and why
          await("the verifier stops at the malformed marker")
              .atMost(WAIT)
              .until(() -> app.failure.get() != null);
          String place = "poison record at topic " + topic + ", partition 0, offset " + bad + ": ";
          assertThat(app.failure.get()).hasStackTraceContaining(place);
          assertThat(app.failure.get()).hasStackTraceContaining(expected[i]);

          // And partition 0 is applied up to the record before it, nothing after it
          assertThat(checkpoint(settings, target, database, topic)).isEqualTo(bad - 1);
          Set<Integer> after = PoisonRecordIT.keysAfter(env, topic, bad);
          assertThat(after).as("changes behind the marker in partition 0").isNotEmpty();
          assertThat(ids(target, database, name)).doesNotContainAnyElementsOf(after);

          // And an UNVERIFIABLE alert names the table and the record
          Alert alert =
              PoisonRecordIT.firstAlert(
                  env, settings.tables().alertsTopic(), a -> table.toString().equals(a.getTable()));
          assertThat(alert.getCode()).isEqualTo(AlertCode.UNVERIFIABLE);
          assertThat(alert.getTopic()).isEqualTo(topic);
          assertThat(alert.getPartition()).isZero();
          assertThat(alert.getOffset()).isEqualTo(bad);
          assertThat(alert.getMessage()).contains(place);
        }
      }
    }
  }

  /** The table partition of an {@code items} id. */
  private static int partitionOf(int id) {
    return KeyPartitioner.partition(KEYS.encode(List.of(id)), PARTITIONS);
  }

  private static List<String> qualified(String[] tables) {
    return Arrays.stream(tables).map(t -> "public." + t).toList();
  }

  /**
   * The {@code hash_locations} of one part per table partition: table partition → {hashes
   * partition, offset}.
   */
  private static String locations(Map<Integer, long[]> places) {
    List<HashLocation> locations = new ArrayList<>();
    places.forEach(
        (partition, at) -> locations.add(new HashLocation(partition, (int) at[0], at[1], 0, 1)));
    return Note.hashLocationsJson(locations);
  }

  /** Sends a record with the marker header {@code phase} to partition 0; returns its offset. */
  private static long send(EmbeddedEnvironment env, String topic, String phase, byte[] value)
      throws Exception {
    RecordHeaders headers = new RecordHeaders();
    headers.add(Note.MARKER_HEADER, phase.getBytes(StandardCharsets.UTF_8));
    try (KafkaProducer<byte[], byte[]> producer = producer(env)) {
      return producer
          .send(new ProducerRecord<>(topic, 0, (byte[]) null, value, headers))
          .get()
          .offset();
    }
  }

  private static KafkaProducer<byte[], byte[]> producer(EmbeddedEnvironment env) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private static long checkpoint(
      VerifierSettings settings, JdbcServer target, String database, String topic)
      throws SQLException {
    try (Connection c = target.connect(database)) {
      return new CheckpointStore(c, new PostgresDialect(), null)
          .find(settings.applicationId(), topic, 0)
          .map(Checkpoint::offset)
          .orElse(-1L);
    }
  }

  private static long count(JdbcServer target, String database, String table) throws SQLException {
    try (Connection c = target.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Set<Integer> ids(JdbcServer target, String database, String table)
      throws SQLException {
    Set<Integer> ids = new HashSet<>();
    try (Connection c = target.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM " + table)) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }

  /**
   * A captured source {@code items}, its PostgreSQL target holding the three extra rows, and, once
   * started, the target's verifier and the report aggregation.
   */
  private static final class Pipeline implements AutoCloseable {
    final EmbeddedEnvironment env;
    final CaptureFixture source;
    final JdbcServer target;
    final String database;
    final String topic;
    final String hashesTopic;
    final VerifierSettings settings;
    final ReportConfig report;
    final CaptureFixture.Running capture;
    final SpecificAvroSerializer<HashRecord> hashSerializer = new SpecificAvroSerializer<>();
    final SpecificAvroDeserializer<HashRecord> hashDeserializer = new SpecificAvroDeserializer<>();
    final AtomicReference<Throwable> reportFailure = new AtomicReference<>();
    final Path reportState;
    VerifierApp verifier;
    KafkaStreams reportApp;
    ResultsReader results;

    private Pipeline(EmbeddedEnvironment env, String stem) throws Exception {
      this.env = env;
      source = new CaptureFixture(env);
      source.sql("CREATE TABLE items (id int PRIMARY KEY, name text)");
      target = env.targetPostgres();
      database = target.createDatabase(stem + "_" + source.prefix);
      try (Connection c = target.connect(database);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE items (id int PRIMARY KEY, name text)");
        s.execute("INSERT INTO items VALUES (50, 'extra'), (150, 'extra'), (250, 'extra')");
      }
      topic = TableTopics.topicName(source.prefix, ITEMS);
      report = ReportConfig.of(source.prefix, env.registry().confluentApiUrl());
      hashesTopic = report.hashesTopic();
      settings =
          VerifierSettings.builder("pg")
              .applicationId("verify-" + source.prefix)
              .bootstrapServers(env.kafka().bootstrapServers())
              .registryUrl(env.registry().confluentApiUrl())
              .topicPrefix(source.prefix)
              .table(ITEMS)
              .target(target.jdbcUrl(database), target.user(), target.password())
              .applyBatchSize(100)
              .applyMaxDelay(Duration.ofMillis(100))
              .hashesTimeout(Duration.ofSeconds(5))
              .streamsProperty("commit.interval.ms", "200")
              .build();
      Map<String, Object> registry =
          Map.of("schema.registry.url", env.registry().confluentApiUrl());
      hashSerializer.configure(registry, false);
      hashDeserializer.configure(
          Map.of(
              "schema.registry.url",
              env.registry().confluentApiUrl(),
              SpecificAvroDeserializer.VALUE_TYPE,
              HashRecord.class.getName()),
          false);
      reportState = Files.createTempDirectory("bad-records-report");
      capture = source.start("public.items");
      source.sql(
          "INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 300) g"
              + " WHERE g NOT IN (50, 150, 250)");
    }

    /** The pipeline; {@code verifying}: with the verifier and report running, the rows applied. */
    static Pipeline start(EmbeddedEnvironment env, String stem, boolean verifying)
        throws Exception {
      Pipeline p = new Pipeline(env, stem);
      try {
        if (verifying) {
          p.startVerifier();
        }
        return p;
      } catch (Exception | AssertionError e) {
        p.close();
        throw e;
      }
    }

    /** Starts the verifier and the report aggregation; waits until the 297 rows are applied. */
    void startVerifier() throws Exception {
      verifier = VerifierApp.start(settings, CommitAudit.of(settings, target, database, ITEMS));
      ReportTopics.ensure(report, env.kafka().bootstrapServers(), Map.of());
      Properties props = report.streamsProperties(env.kafka().bootstrapServers());
      props.put(StreamsConfig.STATE_DIR_CONFIG, reportState.toString());
      props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
      reportApp = new KafkaStreams(ReportTopologyFactory.build(report), props);
      reportApp.setUncaughtExceptionHandler(
          e -> {
            reportFailure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
          });
      reportApp.start();
      results = ResultsReader.of(env, settings);
      await("the source's rows applied")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                requireHealthy();
                assertThat(count(target, database, "items")).isEqualTo(300);
              });
    }

    void requireHealthy() {
      verifier.requireHealthy();
      Throwable e = reportFailure.get();
      if (e != null) {
        throw new AssertionError("the report aggregation failed: " + e, e);
      }
    }

    /** A full compare of {@code items} at chunk=100, deep=100: three chunks. */
    CompareRun.TableDone compare(String task) throws Exception {
      Map<String, String> config = source.task(task, "public.items");
      config.put("chunk", "100");
      config.put("deep", "100");
      CompareRun.TableDone done =
          new CompareRun(CompareConfig.of(config), false).run().tables().get(0);
      assertThat(done.chunks()).isEqualTo(3);
      return done;
    }

    /** The result of a chunk in a partition, waited for. */
    ChunkResult result(String run, long chunk, int partition) {
      AtomicReference<ChunkResult> found = new AtomicReference<>();
      await("result of run " + run + " chunk " + chunk + " partition " + partition)
          .atMost(WAIT)
          .until(
              () -> {
                requireHealthy();
                results.ofRun(run).stream()
                    .map(ConsumerRecord::value)
                    .filter(r -> r.getChunk() == chunk && r.getTablePartition() == partition)
                    .findFirst()
                    .ifPresent(found::set);
                return found.get() != null;
              });
      return found.get();
    }

    Alert alert(Predicate<Alert> wanted) {
      return PoisonRecordIT.firstAlert(env, report.alertsTopic(), wanted);
    }

    /** The hash records of a chunk of a run, as they are on the hashes topic. */
    List<HashRecord> hashRecords(String run, long chunk) {
      List<HashRecord> records = new ArrayList<>();
      for (ConsumerRecord<byte[], byte[]> r : source.readAll(hashesTopic)) {
        if (r.value() != null) {
          HashRecord record = hashDeserializer.deserialize(hashesTopic, r.value());
          if (record.getRunId().equals(run) && record.getChunk() == chunk) {
            records.add(record);
          }
        }
      }
      assertThat(records).hasSize(PARTITIONS);
      records.sort(Comparator.comparingInt(HashRecord::getTablePartition));
      return records;
    }

    /** Where the hash records of a chunk are: table partition → {hashes partition, offset}. */
    Map<Integer, long[]> locationsOf(String run, long chunk) {
      Map<Integer, long[]> places = new TreeMap<>();
      for (ConsumerRecord<byte[], byte[]> r : source.readAll(hashesTopic)) {
        if (r.value() != null) {
          HashRecord record = hashDeserializer.deserialize(hashesTopic, r.value());
          if (record.getRunId().equals(run) && record.getChunk() == chunk) {
            places.put(record.getTablePartition(), new long[] {r.partition(), r.offset()});
          }
        }
      }
      assertThat(places).hasSize(PARTITIONS);
      return places;
    }

    /**
     * Deletes the records of the hashes topic up to the last one of the chunk, after checking that
     * every record before it in its partition is of the same chunk; returns the new start offsets.
     */
    Map<TopicPartition, Long> deleteChunkHashRecords(String run, long chunk) throws Exception {
      Map<TopicPartition, Long> upTo = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> r : source.readAll(hashesTopic)) {
        HashRecord record =
            r.value() == null ? null : hashDeserializer.deserialize(hashesTopic, r.value());
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        boolean mine =
            record != null && record.getRunId().equals(run) && record.getChunk() == chunk;
        if (mine) {
          assertThat(upTo.getOrDefault(tp, r.offset()))
              .as("chunk %s first in %s", chunk, tp)
              .isEqualTo(r.offset());
          upTo.put(tp, r.offset() + 1);
        } else {
          upTo.putIfAbsent(tp, -1L);
        }
      }
      upTo.values().removeIf(offset -> offset < 0);
      try (Admin admin =
          Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
        // the topic is compacted, which refuses deleteRecords: an operator adds a retention
        ConfigResource hashes = new ConfigResource(ConfigResource.Type.TOPIC, hashesTopic);
        admin
            .incrementalAlterConfigs(
                Map.of(
                    hashes,
                    List.of(
                        new AlterConfigOp(
                            new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, "compact,delete"),
                            AlterConfigOp.OpType.SET))))
            .all()
            .get();
        Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
        upTo.forEach((tp, offset) -> delete.put(tp, RecordsToDelete.beforeOffset(offset)));
        admin.deleteRecords(delete).all().get();
      }
      for (Map.Entry<TopicPartition, Long> e : upTo.entrySet()) {
        assertThat(beginningOffset(e.getKey()))
            .as("%s starts after chunk %s", e.getKey(), chunk)
            .isEqualTo(e.getValue());
      }
      return upTo;
    }

    /**
     * Notes the task's last chunk again by hand under {@code run}: an OPEN then a CLOSE of the
     * task's note row, the CLOSE pointing at these offsets (per table partition) of hashes
     * partition 0.
     */
    void renote(String task, String run, Map<Integer, long[]> offsets) throws SQLException {
      try (Connection c = source.connect();
          PreparedStatement open =
              c.prepareStatement(
                  "UPDATE repi.validatetables SET run_id = ?, phase = 'OPEN' WHERE task = ?");
          PreparedStatement close =
              c.prepareStatement(
                  "UPDATE repi.validatetables SET phase = 'CLOSE', hash_locations = ?"
                      + " WHERE task = ?")) {
        open.setString(1, run);
        open.setString(2, task);
        assertThat(open.executeUpdate()).isEqualTo(1);
        close.setString(1, locations(offsets));
        close.setString(2, task);
        assertThat(close.executeUpdate()).isEqualTo(1);
      }
    }

    byte[] serialize(HashRecord record) {
      return hashSerializer.serialize(hashesTopic, record);
    }

    /** Sends these bytes to partition 0 of {@code topic}; returns their offset. */
    long send(String topic, String key, byte[] value) throws Exception {
      try (KafkaProducer<byte[], byte[]> producer = producer(env)) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        return producer.send(new ProducerRecord<>(topic, 0, keyBytes, value)).get().offset();
      }
    }

    long endOffset(String topic, int partition) {
      TopicPartition tp = new TopicPartition(topic, partition);
      try (KafkaConsumer<byte[], byte[]> c = consumer()) {
        return c.endOffsets(List.of(tp)).get(tp);
      }
    }

    long beginningOffset(TopicPartition tp) {
      try (KafkaConsumer<byte[], byte[]> c = consumer()) {
        return c.beginningOffsets(List.of(tp)).get(tp);
      }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
      return new KafkaConsumer<>(
          Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
          new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
          new org.apache.kafka.common.serialization.ByteArrayDeserializer());
    }

    /** Rows inserted on the source after the bad record reach the target. */
    void changesAfterAreApplied() throws SQLException {
      source.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(301, 360) g");
      await("changes after the bad record applied")
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                requireHealthy();
                assertThat(count(target, database, "items")).isEqualTo(360);
              });
    }

    @Override
    public void close() throws Exception {
      try {
        if (results != null) {
          results.close();
        }
        if (reportApp != null) {
          reportApp.close(Duration.ofSeconds(30));
        }
        if (verifier != null) {
          verifier.close();
        }
      } finally {
        capture.close();
        try (var paths = Files.walk(reportState)) {
          paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
      }
    }
  }
}
