package io.cdccompare.operations.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.ConnectClient;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.StockConnectors;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.testsupport.SourceFixture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One pipeline on the shared servers: a source database with {@code items} (even ids), the Debezium
 * connector, a sink per target writing its own database, the targets file of both verifiers, and a
 * load; closed, it stops the load and the verifiers and removes the connectors and the slot.
 */
final class StockPipeline implements AutoCloseable {
  static final Duration DELIVERY = Duration.ofSeconds(120);
  static final List<String> TARGETS = List.of("pg", "maria");

  /**
   * The table {@code items} of a pipeline: its definition on the source and on each target kind
   * (none: the sink creates it), and the statements that fill it on the source with {@code rows}
   * rows.
   */
  record Table(String source, String pg, String maria, List<String> fill, int rows) {
    private static final String ITEMS_DDL =
        "CREATE TABLE items (id int PRIMARY KEY, name varchar(50) NOT NULL, qty int)";

    /** Ids, names and quantities: 3 000 rows of even ids, the table of the load. */
    static final Table ITEMS =
        new Table(
            ITEMS_DDL,
            ITEMS_DDL,
            ITEMS_DDL,
            List.of(
                "INSERT INTO items SELECT 2 * g, 'item ' || g, g FROM generate_series(1, 3000) g"),
            3_000);
  }

  final EmbeddedEnvironment env;
  final SourceFixture source;
  final ConnectClient connect;
  final Map<String, String> task;
  final TargetsConfig targets;
  final Table table;
  private final String slot;
  private final String sourceName;
  private final Map<String, String> databases = new LinkedHashMap<>();
  private final AtomicBoolean loading = new AtomicBoolean(true);
  private final AtomicReference<Throwable> loadFailed = new AtomicReference<>();
  private final List<RunningVerifier> verifiers = new ArrayList<>();
  final Map<String, SimpleMeterRegistry> meters = new HashMap<>();
  private Thread load;

  StockPipeline(
      EmbeddedEnvironment env, String name, String format, long stallTimeoutMs, Table table)
      throws Exception {
    this.env = env;
    this.source = new SourceFixture(env, name);
    this.connect = env.connect().client();
    this.table = table;
    source.sql(table.source());
    source.sql(table.fill().toArray(String[]::new));
    for (String target : TARGETS) {
      String database = server(target).createDatabase("target_" + source.prefix);
      databases.put(target, database);
      String ddl = target.equals("pg") ? table.pg() : table.maria();
      if (ddl != null) {
        try (Connection c = server(target).connect(database);
            Statement s = c.createStatement()) {
          s.execute(ddl);
        }
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
          .ignoreExceptionsInstanceOf(SQLException.class)
          .until(
              () -> {
                requireNoTaskFailed(sourceName);
                requireNoTaskFailed(sinkOf(target));
                return rows(server(target).connect(database(target))) == table.rows();
              });
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
                        "INSERT INTO items VALUES (" + next + ", 'new', 0) ON CONFLICT DO NOTHING");
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
      RunningVerifier verifier = RunningVerifier.start(targets, target, false, meters.get(target));
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
    if ((target.equals("pg") ? table.pg() : table.maria()) == null) {
      config.put("schema.evolution", "basic"); // the sink creates the table
    }
    return config;
  }

  /** The targets file of both verifiers: the connector, its converters and each sink's group. */
  private TargetsConfig targetsFile(Map<String, String> converters, long stallTimeoutMs) {
    Map<String, String> file = new HashMap<>();
    file.put("topic.prefix", source.prefix);
    file.put("bootstrap.servers", env.kafka().bootstrapServers());
    file.put("schema.registry.url", env.registry().confluentApiUrl());
    file.put("tables", "public.items");
    // the source, for report explain
    file.put("source.hostname", env.sourcePostgres().host());
    file.put("source.port", Integer.toString(env.sourcePostgres().port()));
    file.put("source.database", source.database);
    file.put("source.user", env.sourcePostgres().user());
    file.put("source.password", env.sourcePostgres().password());
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

  /** Fails at once, with its stack trace, when a task of the connector failed. */
  private void requireNoTaskFailed(String connector) {
    for (ConnectClient.TaskStatus task : connect.status(connector).tasks()) {
      assertThat(task.state())
          .as("task %d of %s: %s", task.id(), connector, task.trace())
          .isNotEqualTo("FAILED");
    }
  }

  /** The rows of {@code items} in the database of {@code c}, which it closes. */
  static long rows(Connection c) throws Exception {
    try (c;
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * The converters of the connector and the sinks, as a user writes them in their configuration:
   * JSON with schemas, or Avro through the registry (Apicurio's converter).
   */
  static Map<String, String> converters(String format, EmbeddedEnvironment env) {
    return format.equals("json")
        ? StockConnectors.jsonConverters()
        : StockConnectors.avroConverters(env.registry());
  }
}
