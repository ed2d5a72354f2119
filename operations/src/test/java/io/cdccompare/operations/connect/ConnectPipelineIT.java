package io.cdccompare.operations.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.ConnectClient;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.StockConnectors;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.testsupport.SourceFixture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pipeline the user already runs, proved as it is: Debezium's PostgreSQL connector on a real
 * Kafka Connect worker (JSON with schemas, or Avro through the registry) and two Debezium JDBC
 * sinks, one writing a PostgreSQL target and one a MariaDB target, under a live load. The compare
 * runs with {@code capture=kafka-connect}; one {@code verify} verifier per target ({@link
 * RunningVerifier} from a targets file with {@code connect.connector}) reads the connector's topics
 * and follows its sink's group. Differences injected on each target are found exactly, by key,
 * class and target; nothing the load changes is reported different; a paused sink stalls only its
 * own target; a worker killed in the middle of a compare changes no verdict.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB,
  Component.CONNECT
})
class ConnectPipelineIT {
  private static final Duration DELIVERY = Duration.ofSeconds(120);
  private static final int ROWS = 3_000;
  private static final List<String> TARGETS = List.of("pg", "maria");

  /** Differences made on a target directly, on ids the load never touches (it changes ≤ 2000). */
  private record Injected(Set<String> updated, Set<String> deleted, Set<String> inserted) {
    static final Map<String, Injected> BY_TARGET =
        Map.of(
            "pg",
            new Injected(
                Set.of("4002", "5000", "5998"), Set.of("4500", "5500"), Set.of("4001", "5001")),
            "maria",
            new Injected(Set.of("3002", "4800"), Set.of("3500"), Set.of("3001")));

    static final Injected NONE = new Injected(Set.of(), Set.of(), Set.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "avro"})
  void injectedDifferencesAreFoundExactlyOnEachTargetWrittenByAJdbcSinkUnderLoad(
      String format, EmbeddedEnvironment env) throws Exception {
    // Given both targets in step, then differences on each, and a live load
    try (Pipeline p = new Pipeline(env, "cpipe" + format.charAt(0), format, 60_000)) {
      p.inject();
      p.startLoad();
      p.startVerifiers();

      // When
      CompareRun.Summary summary = p.compare();

      // Then
      Map<String, List<ChunkResult>> results = p.results(summary, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, results.get(target), Injected.BY_TARGET.get(target));
        SimpleMeterRegistry meters = p.meters.get(target);
        assertThat(
                meters
                    .get(MetricNames.CHUNKS_VERIFIED.name())
                    .tags("target", target, "state", "VERIFIED")
                    .counter()
                    .count())
            .as("the verdicts counted in " + target + "'s metrics")
            .isEqualTo(summary.tables().get(0).chunks());
        assertThat(
                meters
                    .get(MetricNames.ROWS.name())
                    .tags("target", target, "outcome", "failed")
                    .counter()
                    .count())
            .isEqualTo(Injected.BY_TARGET.get(target).updated().size());
      }
    }
  }

  @Test
  void aPausedSinkStallsOnlyItsOwnTargetWithAnAlertAndItVerifiesOnceResumed(EmbeddedEnvironment env)
      throws Exception {
    // Given both targets in step under a load, and maria's sink paused
    try (Pipeline p = new Pipeline(env, "cpause", "json", 6_000)) {
      p.task.put("chunk", "1500"); // fewer chunks: each group of stalled CLOSEs waits the timeout
      p.startLoad();
      p.startVerifiers();
      p.connect.pause(p.sinkOf("maria"));
      await().atMost(DELIVERY).until(() -> p.connect.status(p.sinkOf("maria")).allIn("PAUSED"));

      // When a compare runs
      CompareRun.Summary paused = p.compare();

      // Then maria's chunks are STALLED with an alert, pg's verified in sync
      Map<String, List<ChunkResult>> results = p.results(paused, TARGETS);
      assertThat(results.get("maria"))
          .allSatisfy(
              r -> {
                assertThat(r.getState()).isEqualTo(ChunkState.STALLED);
                assertThat(r.getError()).contains("connect-" + p.sinkOf("maria"));
              });
      assertExact(p, "pg", results.get("pg"), Injected.NONE);
      Alert alert =
          p.first(
              p.targets.topics().alerts(),
              Alert.class,
              a -> a.getCode() == AlertCode.STALLED && "maria".equals(a.getTarget()));
      assertThat(alert.getTable()).isEqualTo("public.items");
      assertThat(alert.getMessage()).contains("connect-" + p.sinkOf("maria"));

      // When the sink is resumed and the compare runs again
      p.connect.resume(p.sinkOf("maria"));
      CompareRun.Summary resumed = p.compare();

      // Then both targets verify in sync
      Map<String, List<ChunkResult>> again = p.results(resumed, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, again.get(target), Injected.NONE);
      }
    }
  }

  @Test
  void aWorkerKilledInTheMiddleOfACompareChangesNoVerdict(EmbeddedEnvironment env)
      throws Exception {
    // Given both targets with differences, a load, and a compare slowed to several seconds
    try (Pipeline p = new Pipeline(env, "ckill", "json", 60_000)) {
      p.inject();
      p.startLoad();
      p.startVerifiers();
      p.task.put(CompareConfig.MAX_ROWS_PER_SECOND, "300");
      CompletableFuture<CompareRun.Summary> compare =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return p.compare();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });

      // When the worker is killed once the first verdict of the run is out, and started again
      p.first(p.targets.topics().results(), ChunkResult.class, r -> true);
      assertThat(compare).as("the compare is still running at the kill").isNotDone();
      env.connect().kill();
      env.connect().start();
      CompareRun.Summary summary = compare.get();

      // Then every target's verdicts are exactly the injected differences
      Map<String, List<ChunkResult>> results = p.results(summary, TARGETS);
      for (String target : TARGETS) {
        assertExact(p, target, results.get(target), Injected.BY_TARGET.get(target));
      }
    }
  }

  /**
   * Every chunk of the target verified, its failed, missed and extra keys exactly the injected
   * ones, and only keys the load changes in flight, each counted once.
   */
  private static void assertExact(
      Pipeline p, String target, List<ChunkResult> results, Injected injected) throws Exception {
    assertThat(results).as(target).allMatch(r -> r.getState() == ChunkState.VERIFIED);
    for (ChunkResult r : results) {
      for (String key : r.getFailedKeys()) {
        if (!injected.updated().contains(key)) { // the evidence of a false difference
          System.out.println(
              "DIAG target "
                  + target
                  + " chunk "
                  + r.getChunk()
                  + " key "
                  + key
                  + " source "
                  + row(p.source.connect(), key)
                  + " target "
                  + row(p.server(target).connect(p.database(target)), key)
                  + " result "
                  + r);
        }
      }
    }
    assertThat(keys(results, "failed")).as(target).isEqualTo(new TreeSet<>(injected.updated()));
    assertThat(keys(results, "missed")).as(target).isEqualTo(new TreeSet<>(injected.deleted()));
    assertThat(keys(results, "extra")).as(target).isEqualTo(new TreeSet<>(injected.inserted()));
    Set<String> inFlight = keys(results, "inFlight");
    assertThat(inFlight)
        .as("only keys the load changed are in flight on " + target)
        .allMatch(k -> Integer.parseInt(k) <= 2000)
        .hasSameSizeAs(results.stream().flatMap(r -> r.getInFlightKeys().stream()).toList());
    long counted =
        results.stream()
            .mapToLong(
                r ->
                    r.getCounts().getMatched()
                        + r.getCounts().getFailed()
                        + r.getCounts().getMissed())
            .sum();
    assertThat(counted + inFlight.size())
        .as("every source row counted once on " + target + ": matched, failed, missed, in flight")
        .isGreaterThanOrEqualTo(ROWS)
        .isLessThanOrEqualTo(rows(p.source.connect()));
  }

  private static String row(Connection c, String id) throws Exception {
    try (c;
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, qty FROM items WHERE id = " + id)) {
      return rs.next() ? rs.getInt(1) + "/" + rs.getString(2) + "/" + rs.getInt(3) : "none";
    }
  }

  /** The rows of {@code items} in the database of {@code c}, which it closes. */
  private static long rows(Connection c) throws Exception {
    try (c;
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Set<String> keys(List<ChunkResult> results, String kind) {
    Set<String> keys = new TreeSet<>();
    for (ChunkResult r : results) {
      List<String> listed =
          switch (kind) {
            case "failed" -> r.getFailedKeys();
            case "missed" -> r.getMissedKeys();
            case "inFlight" -> r.getInFlightKeys();
            default -> r.getExtraKeys();
          };
      keys.addAll(listed);
    }
    return keys;
  }

  /**
   * One pipeline on the shared servers: a source database with {@code items} (even ids), the
   * Debezium connector, a sink per target writing its own database, the targets file of both
   * verifiers, and a load; closed, it stops the load and the verifiers and removes the connectors
   * and the slot.
   */
  private static final class Pipeline implements AutoCloseable {
    final EmbeddedEnvironment env;
    final SourceFixture source;
    final ConnectClient connect;
    final Map<String, String> task;
    final TargetsConfig targets;
    private final String slot;
    private final String sourceName;
    private final Map<String, String> databases = new LinkedHashMap<>();
    private final AtomicBoolean loading = new AtomicBoolean(true);
    private final AtomicReference<Throwable> loadFailed = new AtomicReference<>();
    private final List<RunningVerifier> verifiers = new ArrayList<>();
    final Map<String, SimpleMeterRegistry> meters = new HashMap<>();
    private Thread load;

    Pipeline(EmbeddedEnvironment env, String name, String format, long stallTimeoutMs)
        throws Exception {
      this.env = env;
      this.source = new SourceFixture(env, name);
      this.connect = env.connect().client();
      source.sql(
          "CREATE TABLE items (id int PRIMARY KEY, name varchar(50) NOT NULL, qty int)",
          "INSERT INTO items SELECT 2 * g, 'item ' || g, g FROM generate_series(1, "
              + ROWS
              + ") g");
      for (String target : TARGETS) {
        String database = server(target).createDatabase("target_" + source.prefix);
        databases.put(target, database);
        try (Connection c = server(target).connect(database);
            Statement s = c.createStatement()) {
          s.execute("CREATE TABLE items (id int PRIMARY KEY, name varchar(50) NOT NULL, qty int)");
        }
      }
      this.task = source.task("connect-" + source.prefix, "public.items");
      task.put("capture", "kafka-connect");
      task.put("chunk", "500");
      task.put("deep", "100");
      task.put("targets", String.join(",", TARGETS));
      task.put("recheck.in.flight", "false");
      assertThatThrownBy(() -> new CompareRun(CompareConfig.of(task), false).run())
          .as("the first run creates the note table and says to add it to the connector")
          .hasMessageContaining("created it now");
      this.slot = "slot_" + source.prefix.toLowerCase(Locale.ROOT);
      this.sourceName = source.prefix + "-source";
      Map<String, String> converters = converters(format, env);
      Map<String, String> sourceConfig =
          source.debeziumConnector(slot, "public.items,repi.validatetables");
      sourceConfig.putAll(converters);
      sourceConfig.put("snapshot.mode", "initial");
      connect.create(sourceName, sourceConfig);
      for (String target : TARGETS) {
        connect.create(sinkOf(target), sinkConfig(target, converters));
      }
      for (String target : TARGETS) {
        await()
            .atMost(DELIVERY)
            .ignoreExceptions()
            .until(() -> rows(server(target).connect(database(target))) == ROWS);
      }
      this.targets = targetsFile(converters, stallTimeoutMs);
    }

    JdbcServer server(String target) {
      return target.equals("pg") ? env.targetPostgres() : env.mariadb();
    }

    String database(String target) {
      return databases.get(target);
    }

    String sinkOf(String target) {
      return source.prefix + "-sink-" + target;
    }

    /** Makes each target's injected differences on the target directly. */
    void inject() throws Exception {
      for (String target : TARGETS) {
        Injected d = Injected.BY_TARGET.get(target);
        try (Connection c = server(target).connect(database(target));
            Statement s = c.createStatement()) {
          s.execute(
              "UPDATE items SET qty = -1 WHERE id IN (" + String.join(",", d.updated()) + ")");
          s.execute("DELETE FROM items WHERE id IN (" + String.join(",", d.deleted()) + ")");
          for (String id : d.inserted()) {
            s.execute("INSERT INTO items VALUES (" + id + ", 'extra', 1)");
          }
        }
      }
    }

    /** Updates and inserts rows of ids up to 2000 until closed. */
    void startLoad() {
      load =
          new Thread(
              () -> {
                try (Connection c = source.connect();
                    Statement s = c.createStatement()) {
                  int next = 1;
                  while (loading.get()) {
                    int id = 2 * ThreadLocalRandom.current().nextInt(1, 1000);
                    s.execute("UPDATE items SET qty = qty + 1 WHERE id = " + id);
                    if (next < 2000) {
                      s.execute(
                          "INSERT INTO items VALUES ("
                              + next
                              + ", 'new', 0) ON CONFLICT DO NOTHING");
                      next += 2;
                    }
                    Thread.sleep(20);
                  }
                } catch (Throwable e) {
                  loadFailed.compareAndSet(null, e);
                }
              },
              "load-" + source.prefix);
      load.start();
    }

    void startVerifiers() throws Exception {
      for (String target : TARGETS) {
        meters.put(target, new SimpleMeterRegistry());
        RunningVerifier verifier =
            RunningVerifier.start(targets, target, false, meters.get(target));
        verifiers.add(verifier);
        verifier.awaitRunning(DELIVERY);
      }
    }

    CompareRun.Summary compare() throws Exception {
      return new CompareRun(CompareConfig.of(task), false).run();
    }

    /** Each target's results of every chunk of the run, waiting until all are there. */
    Map<String, List<ChunkResult>> results(CompareRun.Summary summary, List<String> wanted)
        throws Exception {
      long chunks = summary.tables().get(0).chunks();
      String runId = summary.tables().get(0).runId();
      Map<String, Map<Long, ChunkResult>> byTarget = new LinkedHashMap<>();
      wanted.forEach(t -> byTarget.put(t, new LinkedHashMap<>()));
      try (KafkaConsumer<String, ChunkResult> consumer =
          consumer(targets.topics().results(), ChunkResult.class)) {
        await()
            .atMost(DELIVERY)
            .untilAsserted(
                () -> {
                  assertThat(loadFailed.get()).isNull();
                  verifiers.forEach(RunningVerifier::requireHealthy);
                  for (ConsumerRecord<String, ChunkResult> r :
                      consumer.poll(Duration.ofMillis(200))) {
                    if (r.value().getRunId().equals(runId)
                        && byTarget.containsKey(r.value().getTarget())) {
                      byTarget
                          .get(r.value().getTarget())
                          .putIfAbsent(r.value().getChunk(), r.value());
                    }
                  }
                  assertThat(byTarget.values()).allMatch(chunksOf -> chunksOf.size() == chunks);
                });
      }
      Map<String, List<ChunkResult>> results = new LinkedHashMap<>();
      byTarget.forEach((t, chunksOf) -> results.put(t, new ArrayList<>(chunksOf.values())));
      return results;
    }

    /** The first record of {@code topic} from its start that matches, waiting up to 120 s. */
    <T extends SpecificRecord> T first(String topic, Class<T> type, Predicate<T> wanted) {
      List<T> seen = new ArrayList<>();
      try (KafkaConsumer<String, T> consumer = consumer(topic, type)) {
        await()
            .atMost(DELIVERY)
            .until(
                () -> {
                  consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.value()));
                  return seen.stream().anyMatch(wanted);
                });
      }
      return seen.stream().filter(wanted).findFirst().orElseThrow();
    }

    private <T extends SpecificRecord> KafkaConsumer<String, T> consumer(
        String topic, Class<T> type) {
      SpecificAvroDeserializer<T> values = new SpecificAvroDeserializer<>(type);
      values.configure(Map.of("schema.registry.url", env.registry().confluentApiUrl()), false);
      KafkaConsumer<String, T> consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  env.kafka().bootstrapServers(),
                  ConsumerConfig.GROUP_ID_CONFIG,
                  "it-" + UUID.randomUUID(),
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                  "earliest",
                  // the topic may be created by its first record, after the subscription
                  ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                  "500"),
              new StringDeserializer(),
              values);
      consumer.subscribe(List.of(topic));
      return consumer;
    }

    private Map<String, String> sinkConfig(String target, Map<String, String> converters) {
      Map<String, String> config =
          StockConnectors.jdbcSink(
              server(target), database(target), source.prefix + ".public.items", "items");
      config.putAll(converters);
      return config;
    }

    /** The targets file of both verifiers: the connector, its converters and each sink's group. */
    private TargetsConfig targetsFile(Map<String, String> converters, long stallTimeoutMs) {
      Map<String, String> file = new HashMap<>();
      file.put("topic.prefix", source.prefix);
      file.put("bootstrap.servers", env.kafka().bootstrapServers());
      file.put("schema.registry.url", env.registry().confluentApiUrl());
      file.put("tables", "public.items");
      file.put("report.aggregate", "false");
      file.put("follow.stall.timeout.ms", Long.toString(stallTimeoutMs));
      for (String target : TARGETS) {
        String at = "target." + target + ".";
        file.put(at + "url", server(target).jdbcUrl(database(target)));
        file.put(at + "user", server(target).user());
        file.put(at + "password", server(target).password());
        file.put(at + "mode", "verify-only");
        file.put(at + "follow.group", "connect-" + sinkOf(target));
        file.put(at + "application.id", "cdc-compare-verify-" + source.prefix + "-" + target);
        if (target.equals("maria")) { // a MariaDB database is a schema: the table's is its own
          file.put(at + "table.public.items", database(target) + ".items");
        }
      }
      file.put("connect.connector", sourceName);
      file.put("connect.offsets.topic", env.connect().internalTopics().get(1));
      converters.forEach((k, v) -> file.put("connect." + k, v));
      return TargetsConfig.of(file);
    }

    @Override
    public void close() throws Exception {
      loading.set(false);
      if (load != null) {
        load.join();
      }
      verifiers.forEach(RunningVerifier::close);
      for (String target : TARGETS) {
        connect.delete(sinkOf(target));
      }
      connect.delete(sourceName);
      source.dropSlot(slot);
      assertThat(loadFailed.get()).as("the load").isNull();
    }
  }

  /**
   * The converters of the connector and the sinks, as a user writes them in their configuration:
   * JSON with schemas, or Avro through the registry (Apicurio's converter).
   */
  private static Map<String, String> converters(String format, EmbeddedEnvironment env) {
    return format.equals("json")
        ? StockConnectors.jsonConverters()
        : StockConnectors.avroConverters(env.registry());
  }
}
