package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.source.NoteSql;
import io.cdccompare.verifier.verify.ChunkCheck;
import io.cdccompare.verifier.verify.ChunkVerifier;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 6 acceptance: rows updated on the source while their chunk is read are reported in flight,
 * never failed (docs/design.md, "Chunks, notes and the in-flight window"). The compare run is
 * paused between a chunk's OPEN note and its read ({@link CompareRun#onChunkOpened}), where two
 * kinds of change are made to rows of that chunk:
 *
 * <ul>
 *   <li><b>before the read</b>: committed in the pause, so the read sees them and the source hash
 *       equals the target's row;
 *   <li><b>after the read</b>: the pause takes an advisory lock (no transaction id, so the read
 *       does not wait for it) that a test trigger on the note table makes the CLOSE note wait for;
 *       once CLOSE is seen waiting, i.e. after the chunk was read and its hashes were sent, they
 *       are updated and committed, and the lock is let go. The read holds the old values, the
 *       target the new ones: these rows really differ, and only the in-flight rule keeps them from
 *       being failed (shown by verifying the same hash records again with no key in flight).
 * </ul>
 *
 * Both kinds land between OPEN and CLOSE in every partition of the stream.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class InFlightIT {
  private static final int ROWS = 600;
  private static final int CHUNK = 200;
  private static final int CHUNKS = 3;
  private static final int PARTITIONS = 3;
  private static final String TASK = "inflight";

  /** The advisory lock the test trigger makes CLOSE notes wait for while the test holds it. */
  private static final int HOLD_LOCK = 4243;

  private static final KeyCodec KEYS = new KeyCodec(List.of(LogicalType.INTEGER));
  private static final TableName ITEMS = new TableName("public", "items");

  /** Ids of the second chunk (201..400) changed before the read, then after it. */
  private static final List<Integer> BEFORE_READ = List.of(210, 250, 290);

  private static final List<Integer> AFTER_READ = List.of(230, 270, 330, 390);

  @Test
  @SuppressWarnings("try") // the capture runs for the whole try block, unreferenced
  void rowsChangedWhileTheirChunkIsReadAreInFlightNeverFailed(EmbeddedEnvironment env)
      throws Exception {
    // Given a captured table of 600 rows applied to a PostgreSQL and a MariaDB target
    CaptureFixture source = new CaptureFixture(env);
    source.sql("CREATE TABLE items (id int PRIMARY KEY, qty int NOT NULL, note text NOT NULL)");
    List<Target> targets =
        List.of(Target.postgres(env, source.prefix), Target.mariadb(env, source.prefix));
    String topic = TableTopics.topicName(source.prefix, ITEMS);
    ExecutorService compareThread = Executors.newSingleThreadExecutor();
    try (CaptureFixture.Running capture = source.start("public.items");
        VerifierApp pgApp = targets.get(0).start(env, source.prefix, topic);
        VerifierApp mariaApp = targets.get(1).start(env, source.prefix, topic);
        ResultsReader results =
            new ResultsReader(
                env.kafka().bootstrapServers(),
                env.registry().confluentApiUrl(),
                pgApp.settings.tables().resultsTopic());
        Connection holder = source.connect()) {
      source.sql(
          "INSERT INTO items SELECT g, g, 'row ' || g FROM generate_series(1, " + ROWS + ") g");

      // When a full compare (chunk=200, deep=100) pauses between the OPEN note of its second
      // chunk and its read: one update is committed there, and CLOSE is held (a trigger waits
      // for an advisory lock the pause takes) so that another can be made after the read
      source.sql(
          "CREATE FUNCTION hold_close() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
              + " PERFORM pg_advisory_xact_lock("
              + HOLD_LOCK
              + "); RETURN NULL; END $$",
          "CREATE TRIGGER hold_close AFTER UPDATE ON repi.validatetables FOR EACH ROW"
              + " WHEN (NEW.phase = 'CLOSE') EXECUTE FUNCTION hold_close()");
      Map<String, String> task = source.task(TASK, "public.items");
      task.put("chunk", Integer.toString(CHUNK));
      task.put("deep", "100");
      AtomicInteger opened = new AtomicInteger();
      AtomicLong pausedChunk = new AtomicLong(-1);
      CompareRun run =
          new CompareRun(CompareConfig.of(task), false)
              .onChunkOpened(
                  (table, chunk) -> {
                    if (opened.incrementAndGet() != 2) {
                      return;
                    }
                    pausedChunk.set(chunk);
                    // the chunk before may still be closing (the producer reads the next one
                    // meanwhile): once it is closed, only this chunk's CLOSE can wait on the lock
                    await("chunk " + (chunk - 1) + " closed")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> chunksClosed(source) >= chunk);
                    try (Connection committing = source.connect()) {
                      assertThat(update(committing, BEFORE_READ, "before the read"))
                          .isEqualTo(BEFORE_READ.size());
                    }
                    try (Statement hold = holder.createStatement()) {
                      hold.execute("SELECT pg_advisory_lock(" + HOLD_LOCK + ")");
                    }
                  });
      Future<CompareRun.Summary> compare = compareThread.submit(run::run);

      // Then the paused chunk's CLOSE really waits on the held lock (the read is done); the
      // update made then commits before it: its changes land between OPEN and CLOSE
      await("CLOSE of the paused chunk waiting for the held lock")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                if (compare.isDone()) {
                  compare.get(); // throws what stopped it
                  throw new AssertionError("the compare finished without waiting at CLOSE");
                }
                return closeWaitsOnLock(source);
              });
      try (Connection committing = source.connect();
          Statement release = holder.createStatement()) {
        assertThat(update(committing, AFTER_READ, "after the read")).isEqualTo(AFTER_READ.size());
        release.execute("SELECT pg_advisory_unlock(" + HOLD_LOCK + ")");
      }
      CompareRun.Summary summary = compare.get(120, TimeUnit.SECONDS);
      assertThat(summary.tables().get(0).chunks()).isEqualTo(CHUNKS);
      assertThat(pausedChunk.get()).isNotNegative();
      String runId = summary.tables().get(0).runId();

      // Then on each target: every changed key is in flight in its partition of the paused chunk,
      // nothing is failed, missed or extra anywhere, and every other row matched
      Set<String> changed = keys(BEFORE_READ);
      changed.addAll(keys(AFTER_READ));
      Map<String, List<ChunkResult>> byTarget = results(results, runId, pgApp, mariaApp);
      for (Target target : targets) {
        List<ChunkResult> mine = byTarget.get(target.name);
        Set<String> inFlight = new TreeSet<>();
        long pausedMatched = 0;
        for (ChunkResult r : mine) {
          String cell = target.name + " chunk " + r.getChunk() + "/" + r.getTablePartition();
          assertThat(r.getState()).as("%s: %s", cell, r.getError()).isEqualTo(ChunkState.VERIFIED);
          assertThat(r.getFailedKeys()).as(cell + " failed").isEmpty();
          assertThat(r.getMissedKeys()).as(cell + " missed").isEmpty();
          assertThat(r.getExtraKeys()).as(cell + " extra").isEmpty();
          if (r.getChunk() == pausedChunk.get()) {
            Set<String> expected = inPartition(changed, r.getTablePartition());
            assertThat(new TreeSet<>(r.getInFlightKeys()))
                .as(cell + " in flight")
                .isEqualTo(expected);
            assertThat(r.getCounts().getInFlight()).as(cell).isEqualTo(expected.size());
            inFlight.addAll(r.getInFlightKeys());
            pausedMatched += r.getCounts().getMatched();
          } else {
            assertThat(r.getInFlightKeys()).as(cell + " in flight").isEmpty();
          }
        }
        assertThat(inFlight).as(target.name).isEqualTo(changed);
        assertThat(pausedMatched).as(target.name).isEqualTo(CHUNK - changed.size());
        long matched = mine.stream().mapToLong(r -> r.getCounts().getMatched()).sum();
        assertThat(matched).as(target.name).isEqualTo(ROWS - changed.size());
      }

      // And the test bites: the same hash records verified again on each target with no key in
      // flight fail exactly the rows changed after the read (their source hash is of the old
      // values, the target holds the new ones), while the rows changed before the read match
      ComparedShape shape = ComparedShape.fromJson(comparedShape(source));
      assertThat(shape.hashFunction()).isEqualTo(HashFunction.md5().name());
      List<HashRecord> hashRecords = hashRecords(env, source.prefix, runId, pausedChunk.get());
      for (Target target : targets) {
        Set<String> failed = new TreeSet<>();
        long matched = 0;
        try (Connection connection = target.connect()) {
          ChunkVerifier verifier =
              ChunkVerifier.open(
                  connection, target.dialect(), shape.format(), HashFunction.md5(), 1_000);
          for (HashRecord record : hashRecords) {
            ChunkVerdict verdict = verifier.verify(withoutInFlight(shape, record));
            assertThat(verdict.missedKeys()).isEmpty();
            assertThat(verdict.extraKeys()).isEmpty();
            failed.addAll(verdict.failedKeys());
            matched += verdict.matched();
          }
        }
        assertThat(failed)
            .as(target.name + " failed without in-flight keys")
            .isEqualTo(keys(AFTER_READ));
        assertThat(matched).as(target.name).isEqualTo(CHUNK - AFTER_READ.size());
      }
      for (VerifierApp app : List.of(pgApp, mariaApp)) {
        assertThat(app.audit.violations()).as(app.settings.target()).isEmpty();
      }
    } finally {
      compareThread.shutdownNow();
    }
  }

  /** Updates the rows with these ids in the connection's transaction (or auto-commit). */
  private static int update(Connection connection, List<Integer> ids, String note)
      throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "UPDATE items SET qty = qty + 1000, note = ? WHERE id = ANY (?)")) {
      s.setString(1, note);
      s.setArray(2, connection.createArrayOf("int4", ids.toArray()));
      return s.executeUpdate();
    }
  }

  /** How many chunks of the task are closed (its position, committed with each CLOSE). */
  private static long chunksClosed(CaptureFixture source) throws SQLException {
    try (Connection c = source.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT chunks_done FROM repi.comparetables WHERE task = ?")) {
      s.setString(1, TASK);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /**
   * Whether the producer's CLOSE note is waiting for a lock: a session waiting on a lock whose
   * statement begins as the keyset CLOSE does (its text up to the first parameter, taken from the
   * statement itself so that a change of its column order cannot make this wait forever).
   */
  private static boolean closeWaitsOnLock(CaptureFixture source) throws SQLException {
    String close = NoteSql.CLOSE_IN_WINDOW;
    String start = close.substring(0, close.indexOf('?'));
    try (Connection c = source.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND wait_event_type = 'Lock' AND starts_with(query, ?)")) {
      s.setString(1, start);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1) == 1;
      }
    }
  }

  private static String comparedShape(CaptureFixture source) throws SQLException {
    try (Connection c = source.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT compared_shape FROM repi.validatetables WHERE task = ?")) {
      s.setString(1, TASK);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }

  /** A check of one hash record against the target, as the verifier makes it, minus in-flight. */
  private static ChunkCheck withoutInFlight(ComparedShape shape, HashRecord record) {
    assertThat(record.getPartCount()).isEqualTo(1);
    Map<String, byte[]> hashes = new HashMap<>();
    ByteBuffer bytes = record.getHashes().duplicate();
    for (String key : record.getKeys()) {
      byte[] hash = new byte[record.getHashLength()];
      bytes.get(hash);
      hashes.put(key, hash);
    }
    return new ChunkCheck(
        TableRef.of("items"),
        shape.plan(),
        shape.keyColumns().stream().map(HashedColumn::targetName).toList(),
        new KeyCodec(shape.keyColumns().stream().map(HashedColumn::type).toList()),
        hashes,
        record.getTablePartition(),
        record.getPartitionCount(),
        record.getFirstComparedKey() == null
            ? null
            : ComparedRange.between(record.getFirstComparedKey(), record.getLastKey()),
        Set.of());
  }

  /** The hash records of one chunk, one per partition, read from the hashes topic. */
  private static List<HashRecord> hashRecords(
      EmbeddedEnvironment env, String prefix, String runId, long chunk) {
    SpecificAvroDeserializer<HashRecord> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            env.registry().confluentApiUrl(),
            SpecificAvroDeserializer.VALUE_TYPE,
            HashRecord.class.getName()),
        false);
    Map<Integer, HashRecord> byPartition = new TreeMap<>();
    try (KafkaConsumer<byte[], HashRecord> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "hashes-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new ByteArrayDeserializer(),
            values)) {
      consumer.subscribe(List.of(prefix + ".compare.hashes"));
      await("hash records of chunk " + chunk)
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                for (ConsumerRecord<byte[], HashRecord> r : consumer.poll(Duration.ofMillis(200))) {
                  HashRecord h = r.value();
                  if (h != null && h.getRunId().equals(runId) && h.getChunk() == chunk) {
                    byPartition.put(h.getTablePartition(), h);
                  }
                }
                return byPartition.size() == PARTITIONS;
              });
    }
    return new ArrayList<>(byPartition.values());
  }

  /** Every chunk result of the run on each target (one per chunk and partition), by target. */
  private static Map<String, List<ChunkResult>> results(
      ResultsReader results, String runId, VerifierApp... apps) {
    Map<String, ChunkResult> byKey = new TreeMap<>();
    await("results of run " + runId)
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              for (VerifierApp app : apps) {
                app.requireHealthy();
              }
              for (ConsumerRecord<String, ChunkResult> r : results.ofRun(runId)) {
                byKey.putIfAbsent(r.key(), r.value());
              }
              return byKey.size() >= CHUNKS * PARTITIONS * apps.length;
            });
    assertThat(byKey).hasSize(CHUNKS * PARTITIONS * apps.length);
    return byKey.values().stream().collect(Collectors.groupingBy(ChunkResult::getTarget));
  }

  private static Set<String> keys(List<Integer> ids) {
    return ids.stream()
        .map(id -> KEYS.encode(List.of(id)))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> inPartition(Set<String> keys, int partition) {
    Set<String> out = new TreeSet<>();
    for (String key : keys) {
      if (KeyPartitioner.partition(key, PARTITIONS) == partition) {
        out.add(key);
      }
    }
    return out;
  }

  /** A target database holding an empty {@code items} table, and its verifier's settings. */
  private record Target(
      String name, JdbcServer server, String database, TableName table, String bookkeeping) {

    static Target postgres(EmbeddedEnvironment env, String prefix) throws SQLException {
      JdbcServer server = env.targetPostgres();
      Target target =
          new Target("pg", server, server.createDatabase("target_" + prefix), ITEMS, "cdc_compare");
      target.sql(
          "CREATE SCHEMA cdc_compare",
          "CREATE TABLE items (id int PRIMARY KEY, qty int NOT NULL, note text NOT NULL)");
      return target;
    }

    static Target mariadb(EmbeddedEnvironment env, String prefix) throws SQLException {
      JdbcServer server = env.mariadb();
      String database = server.createDatabase("target_" + prefix);
      Target target =
          new Target(
              "maria",
              server,
              database,
              new TableName(database, "items"),
              server.createDatabase("bookkeeping_" + prefix));
      target.sql(
          "CREATE TABLE items (id INT PRIMARY KEY, qty INT NOT NULL, note TEXT NOT NULL)"
              + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
      return target;
    }

    VerifierApp start(EmbeddedEnvironment env, String prefix, String topic) throws Exception {
      VerifierSettings settings =
          VerifierSettings.builder(name)
              .applicationId("inflight-" + prefix + "-" + name)
              .bootstrapServers(env.kafka().bootstrapServers())
              .registryUrl(env.registry().confluentApiUrl())
              .topicPrefix(prefix)
              .table(ITEMS, table)
              .target(server.jdbcUrl(database), server.user(), server.password())
              .bookkeepingSchema(bookkeeping)
              .applyBatchSize(200)
              .applyMaxDelay(Duration.ofMillis(500))
              .streamsProperty("commit.interval.ms", "300")
              .build();
      CommitAudit audit =
          new CommitAudit(
              settings.applicationId(),
              Set.of(topic),
              () -> {
                try {
                  return connect();
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              },
              server.jdbcUrl(database),
              bookkeeping);
      return VerifierApp.start(settings, audit);
    }

    Dialect dialect() {
      return Dialect.forJdbcUrl(server.jdbcUrl(database));
    }

    Connection connect() throws SQLException {
      return server.connect(database);
    }

    void sql(String... statements) throws SQLException {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        for (String statement : statements) {
          s.execute(statement);
        }
      }
    }
  }
}
