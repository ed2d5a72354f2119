package io.cdccompare.operations.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.ConnectClient;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.testsupport.SourceFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pipeline the user already runs, proved as it is: Debezium's PostgreSQL connector on a real
 * Kafka Connect worker (JSON with schemas, or Avro through the registry) and Debezium's JDBC sink
 * writing a PostgreSQL target, under a live load. The compare runs with {@code
 * capture=kafka-connect}; {@code verify}'s verifier ({@link RunningVerifier} from a targets file
 * with {@code connect.connector}) reads the connector's topics and follows the sink's group.
 * Differences injected on the target are found exactly, by key and class; nothing the load changes
 * is reported different.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.CONNECT
})
class ConnectPipelineIT {
  private static final Duration DELIVERY = Duration.ofSeconds(120);
  private static final int ROWS = 3_000;

  @ParameterizedTest
  @ValueSource(strings = {"json", "avro"})
  void injectedDifferencesAreFoundExactlyOnATargetWrittenByTheJdbcSinkUnderLoad(
      String format, EmbeddedEnvironment env) throws Exception {
    // Given a source of even ids, the connector and the sink, the target in step
    SourceFixture source = new SourceFixture(env, "cpipe" + format.charAt(0));
    source.sql(
        "CREATE TABLE items (id int PRIMARY KEY, name varchar(50) NOT NULL, qty int)",
        "INSERT INTO items SELECT 2 * g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");
    String database = env.targetPostgres().createDatabase("target_" + source.prefix);
    try (Connection c = env.targetPostgres().connect(database);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE items (id int PRIMARY KEY, name varchar(50) NOT NULL, qty int)");
    }
    Map<String, String> task = task(source);
    assertThatThrownBy(() -> new CompareRun(CompareConfig.of(task), false).run())
        .as("the first run creates the note table and says to add it to the connector")
        .hasMessageContaining("created it now");
    ConnectClient connect = env.connect().client();
    String slot = "slot_" + source.prefix.toLowerCase(java.util.Locale.ROOT);
    Map<String, String> json = converters(format, env);
    Map<String, String> sourceConfig =
        source.debeziumConnector(slot, "public.items,repi.validatetables");
    sourceConfig.putAll(json);
    sourceConfig.put("snapshot.mode", "initial");
    String sourceName = source.prefix + "-source";
    String sinkName = source.prefix + "-sink";
    connect.create(sourceName, sourceConfig);
    connect.create(sinkName, sinkConfig(env, source, database, json));
    AtomicBoolean loading = new AtomicBoolean(true);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    RunningVerifier verifier = null;
    Thread load = null;
    try {
      await()
          .atMost(DELIVERY)
          .ignoreExceptions()
          .until(() -> rows(env.targetPostgres().connect(database)) == ROWS);

      // differences on ids the load never touches (it changes ids up to 2000)
      Set<String> updated = Set.of("4002", "5000", "5998");
      Set<String> deleted = Set.of("4500", "5500");
      Set<String> inserted = Set.of("4001", "5001");
      try (Connection c = env.targetPostgres().connect(database);
          Statement s = c.createStatement()) {
        s.execute("UPDATE items SET qty = -1 WHERE id IN (4002, 5000, 5998)");
        s.execute("DELETE FROM items WHERE id IN (4500, 5500)");
        s.execute("INSERT INTO items VALUES (4001, 'extra', 1), (5001, 'extra', 2)");
      }
      load = new Thread(() -> load(source, loading, failed), "load");
      load.start();

      TargetsConfig targets = targets(env, source, database, sourceName, sinkName, json);
      verifier = RunningVerifier.start(targets, "pg", false);
      verifier.awaitRunning(DELIVERY);

      // When
      CompareRun.Summary summary = new CompareRun(CompareConfig.of(task), false).run();
      long chunks = summary.tables().get(0).chunks();
      String runId = summary.tables().get(0).runId();

      // Then
      List<ChunkResult> results = new ArrayList<>();
      RunningVerifier running = verifier;
      try (KafkaConsumer<String, ChunkResult> consumer = results(env, targets)) {
        await()
            .atMost(DELIVERY)
            .untilAsserted(
                () -> {
                  assertThat(failed.get()).isNull();
                  running.requireHealthy();
                  for (ConsumerRecord<String, ChunkResult> r :
                      consumer.poll(Duration.ofMillis(200))) {
                    if (r.value().getRunId().equals(runId)) {
                      results.add(r.value());
                    }
                  }
                  assertThat(results.stream().map(ChunkResult::getChunk).distinct().count())
                      .isEqualTo(chunks);
                });
      }
      assertThat(results).allMatch(r -> r.getState() == ChunkState.VERIFIED);
      for (ChunkResult r : results) {
        for (String key : r.getFailedKeys()) {
          if (!updated.contains(key)) { // the evidence of a false difference, for its diagnosis
            System.out.println(
                "DIAG chunk "
                    + r.getChunk()
                    + " key "
                    + key
                    + " source "
                    + row(source.connect(), key)
                    + " target "
                    + row(env.targetPostgres().connect(database), key)
                    + " result "
                    + r);
          }
        }
      }
      assertThat(keys(results, "failed")).isEqualTo(new TreeSet<>(updated));
      assertThat(keys(results, "missed")).isEqualTo(new TreeSet<>(deleted));
      assertThat(keys(results, "extra")).isEqualTo(new TreeSet<>(inserted));
      Set<String> inFlight = keys(results, "inFlight");
      assertThat(inFlight)
          .as("only keys the load changed are in flight")
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
          .as("every source row counted once: matched, failed, missed or in flight")
          .isGreaterThanOrEqualTo(ROWS)
          .isLessThanOrEqualTo(rows(source.connect()));
    } finally {
      loading.set(false);
      if (load != null) {
        load.join();
      }
      if (verifier != null) {
        verifier.close();
      }
      connect.delete(sinkName);
      connect.delete(sourceName);
      source.dropSlot(slot);
    }
    assertThat(failed.get()).isNull();
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

  /** Updates and inserts rows of ids up to 2000 until told to stop. */
  private static void load(
      SourceFixture source, AtomicBoolean loading, AtomicReference<Throwable> failed) {
    try (Connection c = source.connect();
        Statement s = c.createStatement()) {
      int next = 1;
      while (loading.get()) {
        int id = 2 * ThreadLocalRandom.current().nextInt(1, 1000);
        s.execute("UPDATE items SET qty = qty + 1 WHERE id = " + id);
        if (next < 2000) {
          s.execute("INSERT INTO items VALUES (" + next + ", 'new', 0) ON CONFLICT DO NOTHING");
          next += 2;
        }
        Thread.sleep(20);
      }
    } catch (Throwable e) {
      failed.compareAndSet(null, e);
    }
  }

  private static Map<String, String> task(SourceFixture source) {
    Map<String, String> task = source.task("connect-" + source.prefix, "public.items");
    task.put("capture", "kafka-connect");
    task.put("chunk", "500");
    task.put("deep", "100");
    task.put("targets", "pg");
    task.put("recheck.in.flight", "false");
    return task;
  }

  private static Map<String, String> sinkConfig(
      EmbeddedEnvironment env, SourceFixture source, String database, Map<String, String> json) {
    Map<String, String> config = new HashMap<>(json);
    config.put("connector.class", "io.debezium.connector.jdbc.JdbcSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", source.prefix + ".public.items");
    config.put("connection.url", env.targetPostgres().jdbcUrl(database));
    config.put("connection.username", env.targetPostgres().user());
    config.put("connection.password", env.targetPostgres().password());
    config.put("insert.mode", "upsert");
    config.put("delete.enabled", "true");
    config.put("primary.key.mode", "record_key");
    config.put("primary.key.fields", "id");
    config.put("schema.evolution", "none");
    config.put("collection.name.format", "items");
    return config;
  }

  /**
   * The converters of the connector and the sink, as a user writes them in their configuration:
   * JSON with schemas, or Avro through the registry (Apicurio's converter).
   */
  private static Map<String, String> converters(String format, EmbeddedEnvironment env) {
    Map<String, String> converters = new HashMap<>();
    for (String side : List.of("key.converter", "value.converter")) {
      if (format.equals("json")) {
        converters.put(side, "org.apache.kafka.connect.json.JsonConverter");
        converters.put(side + ".schemas.enable", "true");
      } else {
        converters.put(side, "io.apicurio.registry.utils.converter.AvroConverter");
        converters.put(side + ".apicurio.registry.url", env.registry().apicurioApiUrl());
        converters.put(side + ".apicurio.registry.auto-register", "true");
        converters.put(side + ".apicurio.registry.find-latest", "true");
      }
    }
    return converters;
  }

  /** The targets file of the pipeline: its connector, converters and the sink's group. */
  private static TargetsConfig targets(
      EmbeddedEnvironment env,
      SourceFixture source,
      String database,
      String sourceName,
      String sinkName,
      Map<String, String> converters) {
    Map<String, String> file = new HashMap<>();
    file.put("topic.prefix", source.prefix);
    file.put("bootstrap.servers", env.kafka().bootstrapServers());
    file.put("schema.registry.url", env.registry().confluentApiUrl());
    file.put("tables", "public.items");
    file.put("report.aggregate", "false");
    file.put("follow.stall.timeout.ms", "60000");
    file.put("target.pg.url", env.targetPostgres().jdbcUrl(database));
    file.put("target.pg.user", env.targetPostgres().user());
    file.put("target.pg.password", env.targetPostgres().password());
    file.put("target.pg.mode", "verify-only");
    file.put("target.pg.follow.group", "connect-" + sinkName);
    file.put("target.pg.application.id", "cdc-compare-verify-" + source.prefix);
    file.put("connect.connector", sourceName);
    file.put("connect.offsets.topic", env.connect().internalTopics().get(1));
    converters.forEach((k, v) -> file.put("connect." + k, v));
    return TargetsConfig.of(file);
  }

  private static KafkaConsumer<String, ChunkResult> results(
      EmbeddedEnvironment env, TargetsConfig targets) {
    SpecificAvroDeserializer<ChunkResult> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            env.registry().confluentApiUrl(),
            SpecificAvroDeserializer.VALUE_TYPE,
            ChunkResult.class.getName()),
        false);
    KafkaConsumer<String, ChunkResult> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "results-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                // the results topic is created by the first verdict, after the subscription
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                "500"),
            new StringDeserializer(),
            values);
    consumer.subscribe(List.of(targets.topics().results()));
    return consumer;
  }
}
