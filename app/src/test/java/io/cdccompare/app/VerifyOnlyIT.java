package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.testsupport.SourceFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verify-only mode end to end on real servers: a capture, an {@link ExternalApplier} in a child JVM
 * that writes the PostgreSQL target {@code pg} with its own consumer group, and our verifier of
 * {@code pg} in verify-only mode following that group; {@code compare run --wait} through the
 * command line. A trigger on the target's {@code items} records the JDBC application name of every
 * writer, so each test can show that only the applier wrote the table.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class VerifyOnlyIT {
  private static final int ROWS = ComparePipeline.ROWS;
  private static final String APPLIER_NAME = "external-applier";

  private final Cli cli = new Cli();

  @Test
  void anApplierThatDropsEveryThousandthChangeIsCaughtWithEachLostRowNamedInItsClass(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given an applier that silently skips every 1000th change, over 6000 changes at least
    Setup s = Setup.create(env, dir, Duration.ofSeconds(60));
    try (CaptureFixture.Running capture = s.p.source().start("public.items");
        RunningVerifier pg = s.p.verifier("pg", true);
        ExternalApplier.Running applier = s.startApplier(1_000)) {
      s.insertRows();
      try (SourceLoad load = new SourceLoad(s.p.source(), 1)) {
        await("4000 live changes")
            .atMost(Duration.ofSeconds(120))
            .until(() -> load.changes() >= 4_000);
      }
      s.awaitCaughtUp();
      List<String> dropped = ExternalApplier.dropped(s.dropLog);
      assertThat(dropped).as("the applier really dropped changes").hasSizeGreaterThanOrEqualTo(6);

      // and the rows that differ now, by SQL on both databases
      Map<String, String> truth = s.differences();
      assertThat(truth).as("dropped " + dropped).isNotEmpty();

      // When a full compare runs
      int exit = s.runAndWait(cli);

      // Then it finds exactly those rows, each in its class
      assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.DIFFERENCES.code());
      Map<String, String> found = new TreeMap<>();
      for (ChunkResult r : s.results()) {
        r.getFailedKeys().forEach(k -> found.put(k, "failed"));
        r.getMissedKeys().forEach(k -> found.put(k, "missed"));
        r.getExtraKeys().forEach(k -> found.put(k, "extra"));
      }
      assertThat(found).isEqualTo(truth);
      // and each of them is a row whose last dropped change decides the class
      Map<String, String> lastDropped = new HashMap<>();
      dropped.forEach(line -> lastDropped.put(line.split(" ")[1], line.split(" ")[0]));
      Map<String, String> classOfOp =
          Map.of("c", "missed", "r", "missed", "u", "failed", "d", "extra");
      truth.forEach(
          (key, kind) -> {
            assertThat(lastDropped).as("dropped keys").containsKey(key);
            assertThat(classOfOp.get(lastDropped.get(key)))
                .as("key " + key + " dropped " + lastDropped.get(key))
                .isEqualTo(kind);
          });
      assertThat(s.writers()).containsExactly(APPLIER_NAME);
    }
  }

  @Test
  void chunksWaitForAStoppedApplierAndAreVerifiedInSyncUnderLiveLoadWhenItResumes(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a stall timeout of 60 s and the applier stopped under live load
    // (the applier resumes at least 4 s after the first CLOSE, in a child JVM that starts and then
    // catches up on the backlog; on 2 cores in a full test run that took over 20 s once,
    // 2026-12-02,
    // and a partition was STALLED: the stall timeout must exceed the resume, not race it)
    Setup s = Setup.create(env, dir, Duration.ofSeconds(60));
    try (CaptureFixture.Running capture = s.p.source().start("public.items");
        RunningVerifier pg = s.p.verifier("pg", true)) {
      try (ExternalApplier.Running first = s.startApplier(0)) {
        s.insertRows();
        s.awaitCaughtUp();
        first.kill();
        assertThat(first.process().isAlive()).as("the applier is down").isFalse();
      }

      // When a compare runs, the applier staying down a few seconds after the first CLOSE
      Cli background = new Cli();
      ExecutorService runner = Executors.newSingleThreadExecutor();
      try (SourceLoad load = new SourceLoad(s.p.source(), 5)) {
        Future<Integer> run = runner.submit(() -> s.runAndWait(background));
        s.awaitCloseMarker();
        await("no verdict while the applier is down")
            .during(Duration.ofSeconds(4))
            .atMost(Duration.ofSeconds(15))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> s.results().isEmpty() && !run.isDone());
        Instant resumed = Instant.now();
        try (ExternalApplier.Running second = s.startApplier(0)) {
          int exit = run.get(200, TimeUnit.SECONDS);

          // Then the run completes in sync under the live load, every chunk verified after the
          // applier resumed
          assertThat(exit).as(background.out() + background.err()).isEqualTo(ExitCode.OK.code());
          assertThat(load.changes()).as("the live load ran").isPositive();
          assertThat(s.results())
              .isNotEmpty()
              .allSatisfy(
                  r -> {
                    assertThat(r.getState().name()).isEqualTo("VERIFIED");
                    assertThat(r.getVerifiedAt()).isAfter(resumed);
                  });
          // and the verifier kept its bookkeeping in the target, but only the applier wrote items
          assertThat(s.count("SELECT count(*) FROM cdc_compare_verdicts")).isPositive();
          assertThat(s.writers()).containsExactly(APPLIER_NAME);
        }
      } finally {
        runner.shutdownNow(); // a run still waiting after a failed assertion
      }
    }
  }

  @Test
  void anApplierStoppedLongerThanTheStallTimeoutGivesStalledChunksAndAnAlert(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a stall timeout of 5 s and the applier stopped under live load
    Setup s = Setup.create(env, dir, Duration.ofSeconds(5));
    try (CaptureFixture.Running capture = s.p.source().start("public.items");
        RunningVerifier pg = s.p.verifier("pg", true)) {
      try (ExternalApplier.Running applier = s.startApplier(0)) {
        s.insertRows();
        s.awaitCaughtUp();
        applier.kill();
        assertThat(applier.process().isAlive()).as("the applier is down").isFalse();
      }

      // When a compare runs and the applier never comes back
      int exit;
      try (SourceLoad load = new SourceLoad(s.p.source(), 5)) {
        exit = s.runAndWait(cli);
      }

      // Then its chunks are stalled, not verified and not different
      assertThat(exit).as(cli.out() + cli.err()).isEqualTo(ExitCode.UNVERIFIABLE.code());
      List<ChunkResult> results = s.results();
      assertThat(results)
          .isNotEmpty()
          .anySatisfy(r -> assertThat(r.getState().name()).isEqualTo("STALLED"));
      assertThat(results)
          .allSatisfy(r -> assertThat(r.getState().name()).isIn("STALLED", "VERIFIED"));
      // and an alert names the followed group, the topic and the partition
      Alert alert = s.firstAlert(a -> a.getCode().name().equals("STALLED"));
      assertThat(alert.getTarget()).isEqualTo("pg");
      assertThat(alert.getMessage()).contains(s.group);
      assertThat(alert.getTopic()).isEqualTo(s.topic);
      assertThat(alert.getPartition()).isNotNull().isBetween(0, 2);
      assertThat(s.writers()).containsExactly(APPLIER_NAME);
    }
  }

  /** One test's pipeline: source, target pg in verify-only mode following the applier's group. */
  private static final class Setup {
    final EmbeddedEnvironment env;
    final Path dir;
    final ComparePipeline p;
    final String group;
    final String topic;
    final Path dropLog;
    private int starts;

    private Setup(EmbeddedEnvironment env, Path dir, ComparePipeline p, String group) {
      this.env = env;
      this.dir = dir;
      this.p = p;
      this.group = group;
      this.topic = p.source().prefix + ".public.items";
      this.dropLog = dir.resolve("dropped.txt");
    }

    static Setup create(EmbeddedEnvironment env, Path dir, Duration stallTimeout) throws Exception {
      String group = "external-applier-" + UUID.randomUUID();
      ComparePipeline p =
          ComparePipeline.create(
              env,
              dir,
              "vonly",
              Map.of("chunk", "500"),
              List.of("pg"),
              Map.of(
                  "target.pg.mode",
                  "verify-only",
                  "target.pg.follow.group",
                  group,
                  "follow.stall.timeout.ms",
                  Long.toString(stallTimeout.toMillis())));
      ComparePipeline.sql(
          p.pgServer(),
          p.pgDb(),
          "CREATE TABLE items_writers (application_name text PRIMARY KEY)",
          "CREATE FUNCTION record_writer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
              + " INSERT INTO items_writers VALUES (current_setting('application_name'))"
              + " ON CONFLICT DO NOTHING; RETURN NULL; END $$",
          "CREATE TRIGGER items_writers AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items"
              + " FOR EACH STATEMENT EXECUTE FUNCTION record_writer()");
      return new Setup(env, dir, p, group);
    }

    /** Starts an applier of the group, dropping every {@code dropEvery}-th change (0: none). */
    ExternalApplier.Running startApplier(int dropEvery) throws Exception {
      ExternalApplier.Settings settings =
          new ExternalApplier.Settings(
              env.kafka().bootstrapServers(),
              group,
              topic,
              p.pgServer().jdbcUrl(p.pgDb()),
              p.pgServer().user(),
              p.pgServer().password(),
              APPLIER_NAME,
              dropEvery,
              dropLog);
      return ExternalApplier.start(settings, dir.resolve("applier-" + ++starts + ".log"));
    }

    int runAndWait(Cli cli) {
      return cli.run(
          "compare", "run", "-c", p.taskFile().toString(), "--wait", "--wait-timeout", "180");
    }

    void insertRows() throws SQLException {
      p.source()
          .sql(
              "INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, "
                  + ROWS
                  + ") g");
    }

    /** Waits until the applier's group committed the end of every partition of the topic. */
    void awaitCaughtUp() {
      try (Admin admin =
          Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
        await("applier group " + group + " at the end of " + topic)
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> {
                  Map<TopicPartition, OffsetAndMetadata> committed =
                      admin
                          .listConsumerGroupOffsets(group)
                          .partitionsToOffsetAndMetadata()
                          .get(10, TimeUnit.SECONDS);
                  Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                  for (int i = 0; i < 3; i++) {
                    latest.put(new TopicPartition(topic, i), OffsetSpec.latest());
                  }
                  var ends = admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
                  return ends.entrySet().stream()
                      .allMatch(
                          e ->
                              committed.get(e.getKey()) != null
                                  && committed.get(e.getKey()).offset() == e.getValue().offset());
                });
      }
    }

    /** Waits until a CLOSE marker is in the table topic. */
    void awaitCloseMarker() {
      Predicate<ConsumerRecord<byte[], byte[]>> close =
          r -> "CLOSE".equals(SourceFixture.header(r, ExternalApplier.MARKER_HEADER));
      assertThat(p.source().read(topic, records -> records.stream().anyMatch(close)))
          .as("a CLOSE marker in " + topic)
          .anyMatch(close);
    }

    List<ChunkResult> results() {
      return TaskReportReader.of(io.cdccompare.producer.compare.CompareConfig.load(p.taskFile()))
          .results(r -> r.getTarget().equals("pg"));
    }

    /** The application names of every connection that wrote the target's items. */
    Set<String> writers() throws SQLException {
      Set<String> names = new TreeSet<>();
      try (Connection c = p.pgServer().connect(p.pgDb());
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT application_name FROM items_writers")) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      return names;
    }

    long count(String query) throws SQLException {
      try (Connection c = p.pgServer().connect(p.pgDb());
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(query)) {
        rs.next();
        return rs.getLong(1);
      }
    }

    /** Keys of the rows that differ between source and target, each with its class. */
    Map<String, String> differences() throws SQLException {
      Map<Integer, String> source = rows(p.source().connect());
      Map<Integer, String> target = rows(p.pgServer().connect(p.pgDb()));
      Map<String, String> out = new TreeMap<>();
      source.forEach(
          (id, row) -> {
            if (!target.containsKey(id)) {
              out.put(id.toString(), "missed");
            } else if (!target.get(id).equals(row)) {
              out.put(id.toString(), "failed");
            }
          });
      target.keySet().stream()
          .filter(id -> !source.containsKey(id))
          .forEach(id -> out.put(id.toString(), "extra"));
      return out;
    }

    private static Map<Integer, String> rows(Connection connection) throws SQLException {
      Map<Integer, String> rows = new HashMap<>();
      try (Connection c = connection;
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT id, name, n FROM items")) {
        while (rs.next()) {
          rows.put(rs.getInt(1), rs.getString(2) + "|" + rs.getInt(3));
        }
      }
      return rows;
    }

    /** The first alert on the alerts topic that matches, waiting up to 60 s. */
    Alert firstAlert(Predicate<Alert> wanted) {
      SpecificAvroDeserializer<Alert> values = new SpecificAvroDeserializer<>(Alert.class);
      values.configure(Map.of("schema.registry.url", env.registry().confluentApiUrl()), false);
      try (KafkaConsumer<String, Alert> consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  env.kafka().bootstrapServers(),
                  ConsumerConfig.GROUP_ID_CONFIG,
                  "alerts-" + UUID.randomUUID(),
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                  "earliest"),
              new StringDeserializer(),
              values)) {
        consumer.subscribe(List.of(p.source().prefix + ".compare.alerts"));
        List<Alert> alerts = new ArrayList<>();
        await("a matching alert")
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> {
                  consumer.poll(Duration.ofMillis(200)).forEach(r -> alerts.add(r.value()));
                  return alerts.stream().anyMatch(wanted);
                });
        return alerts.stream().filter(wanted).findFirst().orElseThrow();
      }
    }
  }

  /**
   * Changes the source at a steady pace until closed: of every 10 statements 4 update a random row,
   * 4 insert a new row and 2 delete a random row of the first {@link #ROWS} (so that a change lost
   * by the faulty applier is often not fixed by a later one).
   */
  private static final class SourceLoad implements AutoCloseable {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final Random random = new Random(17);
    private final AtomicInteger nextId = new AtomicInteger(ROWS + 1);
    private final AtomicLong changes = new AtomicLong();
    private final Connection connection;
    private final PreparedStatement update;
    private final PreparedStatement insert;
    private final PreparedStatement delete;
    private long step;

    SourceLoad(CaptureFixture source, long periodMillis) throws SQLException {
      connection = source.connect();
      update = connection.prepareStatement("UPDATE items SET n = n + 1 WHERE id = ?");
      insert = connection.prepareStatement("INSERT INTO items VALUES (?, 'new', 0)");
      delete = connection.prepareStatement("DELETE FROM items WHERE id = ?");
      thread.scheduleAtFixedRate(this::change, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void change() {
      try {
        long kind = step++ % 10;
        PreparedStatement s;
        if (kind < 4) {
          s = update;
          s.setInt(1, 1 + random.nextInt(nextId.get() - 1));
        } else if (kind < 8) {
          s = insert;
          s.setInt(1, nextId.getAndIncrement());
        } else {
          s = delete;
          s.setInt(1, 1 + random.nextInt(ROWS));
        }
        changes.addAndGet(s.executeUpdate());
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    long changes() {
      return changes.get();
    }

    @Override
    public void close() throws Exception {
      thread.shutdown();
      assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      connection.close();
    }
  }
}
