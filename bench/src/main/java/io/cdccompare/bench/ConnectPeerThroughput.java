package io.cdccompare.bench;

import io.cdccompare.bench.e2e.BenchLogging;
import io.cdccompare.bench.e2e.StoppableBenchmark;
import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.ConnectClient;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.StockConnectors;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * cdc-compare beside the pipeline a platform team already runs (issue 32; a plain main, not JMH; it
 * never gates the build). On the embedded environment with a Kafka Connect worker, two source
 * databases get the same {@code narrow (id bigint PRIMARY KEY, v int, s text)} rows; one is
 * captured by cdc-compare's own capture, the other by Debezium's PostgreSQL connector on the worker
 * (Avro through the registry), each into its own database of the same target server:
 *
 * <ol>
 *   <li><b>apply</b>: the rows are loaded in one transaction and streamed into each pipeline's
 *       topic while nothing applies them; then cdc-compare's verifier (with apply) is started on
 *       one, and afterwards the Debezium JDBC sink connector on the other, each timed from its
 *       start until its target database holds every row;
 *   <li><b>compare</b>: a full compare (deep=100) of each source, timed from its start until the
 *       target's verdict of its last chunk is on the results topic: on the own pipeline's target by
 *       the verifier that applied it, on the sink's target by {@code verify} in its Kafka Connect
 *       mode ({@code connect.connector}, verify-only, following the sink's group). Every verdict
 *       must be VERIFIED with every row matched, or the run fails. Then both compares again, as for
 *       verifiers that run always (warm JVMs, the sink's verifier with its table topic assigned).
 * </ol>
 *
 * <p>The goals are ratios measured in the same run: the own apply at ≥ 1.0 × the sink's rows/s, and
 * the compare on the sink-written target at ≥ 0.8 × the rows/s of the compare on the own pipeline's
 * target. Arguments: {@code [rows] [--target=pg|maria] [--chunk=N] [--partitions=N]
 * [--compare-setting=KEY=VALUE]} (defaults 1 000 000, pg, 10 000, 3: the partitions of both
 * pipelines' table topics and the sink's {@code tasks.max}; a task key for both compares,
 * repeatable). Ctrl-C or SIGTERM stops everything it started. See bench/README.md.
 */
public final class ConnectPeerThroughput
    implements StoppableBenchmark<ConnectPeerThroughput.Figures> {
  private static final Duration START = Duration.ofMinutes(3);
  private static final String TABLE = "public.narrow";
  private static final String TARGET = "t";

  /** What was measured. */
  record Figures(
      long rows,
      String target,
      int partitions,
      double ownApplySeconds,
      double sinkApplySeconds,
      double ownCompareSeconds,
      double connectCompareSeconds,
      double ownAgainSeconds,
      double connectAgainSeconds,
      long chunks) {}

  private final long rows;
  private final Component targetComponent;
  private final int chunk;
  private final int partitions;
  private final Map<String, String> compareSettings;
  private volatile boolean stopped;
  private volatile EmbeddedEnvironment env;
  private volatile Capture capture;
  private volatile CompareRun compare;
  private final List<RunningVerifier> verifiers = new ArrayList<>();
  private ExecutorService captureThread;
  private Future<?> captureRun;

  private ConnectPeerThroughput(
      long rows, Component target, int chunk, int partitions, Map<String, String> compare) {
    this.rows = rows;
    this.compareSettings = Map.copyOf(compare);
    this.targetComponent = target;
    this.chunk = chunk;
    this.partitions = partitions;
  }

  public static void main(String[] args) throws Exception {
    BenchLogging.useOwnConfiguration();
    long rows = 1_000_000;
    Component target = Component.TARGET_POSTGRES;
    int chunk = 10_000;
    int partitions = 3;
    Map<String, String> compareSettings = new HashMap<>();
    for (String arg : args) {
      if (arg.startsWith("--target=")) {
        String name = arg.substring("--target=".length());
        target =
            switch (name) {
              case "pg" -> Component.TARGET_POSTGRES;
              case "maria" -> Component.MARIADB;
              default -> throw new IllegalArgumentException("--target: pg or maria, not " + name);
            };
      } else if (arg.startsWith("--chunk=")) {
        chunk = Integer.parseInt(arg.substring("--chunk=".length()));
      } else if (arg.startsWith("--compare-setting=")) {
        String[] kv = arg.substring("--compare-setting=".length()).split("=", 2);
        compareSettings.put(kv[0], kv[1]);
      } else if (arg.startsWith("--partitions=")) {
        partitions = Integer.parseInt(arg.substring("--partitions=".length()));
      } else {
        rows = Long.parseLong(arg.replace("_", ""));
      }
    }
    Optional<Figures> figures =
        StoppableBenchmark.runUntilStopped(
            new ConnectPeerThroughput(rows, target, chunk, partitions, compareSettings),
            "connect-peer-stop");
    figures.ifPresent(ConnectPeerThroughput::print);
  }

  @Override
  public Figures run() throws Exception {
    say("starting the embedded environment with a Kafka Connect worker");
    env =
        EmbeddedEnvironment.start(
            EnumSet.of(
                Component.KAFKA,
                Component.REGISTRY,
                Component.SOURCE_POSTGRES,
                Component.CONNECT,
                targetComponent));
    JdbcServer server = targetComponent == Component.MARIADB ? env.mariadb() : env.targetPostgres();
    String ddl = "CREATE TABLE narrow (id bigint PRIMARY KEY, v int, s text)";
    Source own = Source.create(env, "peerown");
    Source stock = Source.create(env, "peercon");
    own.sql(ddl);
    stock.sql(ddl);
    String ownDb = server.createDatabase("own_" + own.prefix);
    String sinkDb = server.createDatabase("sink_" + stock.prefix);
    for (String db : List.of(ownDb, sinkDb)) {
      execute(server, db, ddl);
    }
    Path state = Files.createTempDirectory("connect-peer-state");

    // the own pipeline: the capture streaming, no verifier yet
    Map<String, String> captureSettings = own.connection();
    captureSettings.put("tables", TABLE);
    captureSettings.put("snapshot", "never");
    captureSettings.put("topic.partitions", Integer.toString(partitions));
    startCapture(captureSettings);

    // the stock pipeline: the note table first (the compare's first run), then the connector
    Map<String, String> stockTask = task(stock);
    stockTask.put("capture", "kafka-connect");
    try {
      new CompareRun(CompareConfig.of(stockTask), false).run();
      throw new IllegalStateException("the first kafka-connect run did not create the note table");
    } catch (RuntimeException e) {
      if (e.getMessage() == null || !e.getMessage().contains("created it now")) {
        throw e;
      }
    }
    ConnectClient connect = env.connect().client();
    String slot = "slot_" + stock.prefix;
    Map<String, String> converters = StockConnectors.avroConverters(env.registry());
    Map<String, String> source = stock.connector(slot, TABLE + ",repi.validatetables");
    source.putAll(converters);
    source.put("snapshot.mode", "no_data");
    source.put("topic.creation.default.partitions", Integer.toString(partitions));
    // the notes keep their order in one partition, whatever the tables' topics have
    source.put("topic.creation.groups", "notes");
    source.put("topic.creation.notes.include", stock.prefix + "\\.repi\\.validatetables");
    source.put("topic.creation.notes.partitions", "1");
    String sourceName = stock.prefix + "-source";
    String sinkName = stock.prefix + "-sink";
    connect.create(sourceName, source);
    awaitUntil(
        "the connector streams",
        () ->
            running(connect, sourceName)
                && stock.any(
                    "SELECT 1 FROM pg_replication_slots WHERE active AND slot_name = '"
                        + slot
                        + "'"));

    // the same rows on both sources, each in one transaction, streamed into the topics
    String load =
        "INSERT INTO narrow SELECT g, (g % 1000)::int, md5(g::text) FROM generate_series(1, "
            + rows
            + ") g";
    // a connector's first transaction carries no last commit: its rows count as after every note
    // until a later transaction of their partition bounds them, so the load must not be it (a
    // running connector has streamed earlier transactions)
    stock.sql("BEGIN; INSERT INTO narrow VALUES (0, 0, 'first'); DELETE FROM narrow; COMMIT");
    say(String.format(Locale.ROOT, "loading %,d rows on both sources", rows));
    own.sql(load);
    stock.sql(load);
    awaitRecords(own.prefix + "." + TABLE);
    awaitRecords(stock.prefix + "." + TABLE);
    say("both topics hold every row");

    // apply: the own verifier, then the JDBC sink
    TargetsConfig ownTargets = ownTargets(own, server, ownDb, state);
    long start = System.nanoTime();
    RunningVerifier ownVerifier = RunningVerifier.start(ownTargets, TARGET, false);
    verifiers.add(ownVerifier);
    awaitRows(server, ownDb, ownVerifier);
    double ownApply = (System.nanoTime() - start) / 1e9;
    say(String.format(Locale.ROOT, "own apply: %.2f s", ownApply));
    start = System.nanoTime();
    connect.create(sinkName, sink(stock, server, sinkDb, converters));
    awaitRows(server, sinkDb, null);
    double sinkApply = (System.nanoTime() - start) / 1e9;
    say(String.format(Locale.ROOT, "JDBC sink apply: %.2f s", sinkApply));

    // compare: on the own pipeline's target, then on the sink's
    Map<String, String> ownTask = task(own);
    Timed ownCompare = timedCompare(ownTask, ownTargets);
    TargetsConfig stockTargets =
        stockTargets(stock, server, sinkDb, state, sourceName, sinkName, converters);
    RunningVerifier stockVerifier = RunningVerifier.start(stockTargets, TARGET, false);
    verifiers.add(stockVerifier);
    stockVerifier.awaitRunning(START);
    Timed stockCompare = timedCompare(stockTask, stockTargets);
    // again, as for verifiers that run always: the sink's has read the table topic since its note
    Timed ownAgain = timedCompare(ownTask, ownTargets);
    Timed stockAgain = timedCompare(stockTask, stockTargets);
    return new Figures(
        rows,
        server.component().displayName(),
        partitions,
        ownApply,
        sinkApply,
        ownCompare.seconds(),
        stockCompare.seconds(),
        ownAgain.seconds(),
        stockAgain.seconds(),
        ownCompare.chunks());
  }

  private record Timed(double seconds, long chunks) {}

  /** Runs the compare; the time from its start until the target's last chunk result arrived. */
  private Timed timedCompare(Map<String, String> task, TargetsConfig targets) throws Exception {
    String topic = targets.topics().results();
    try (KafkaConsumer<String, ChunkResult> results = resultsConsumer(topic)) {
      results.poll(Duration.ZERO);
      say("compare of " + task.get("task.name"));
      long startMs = System.currentTimeMillis();
      compare = new CompareRun(CompareConfig.of(task), false);
      CompareRun.Summary summary = compare.run();
      compare = null;
      CompareRun.TableDone done = summary.tables().get(0);
      if (!summary.complete() || done.rows() != rows) {
        throw new IllegalStateException("the compare gave " + summary);
      }
      Set<String> judged = new HashSet<>(); // chunk/partition: a verdict per table partition
      Map<Long, Integer> partsOf = new HashMap<>();
      long matched = 0;
      long lastMs = 0;
      long deadline =
          System.nanoTime() + START.toNanos() + Duration.ofSeconds(rows / 1_000).toNanos();
      while (partsOf.size() < done.chunks()
          || judged.size() < partsOf.values().stream().mapToLong(Integer::longValue).sum()) {
        requireHealthy();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "only " + judged.size() + " verdicts of " + done.chunks() + " chunks in time");
        }
        for (ConsumerRecord<String, ChunkResult> r : results.poll(Duration.ofMillis(100))) {
          ChunkResult result = r.value();
          if (!result.getRunId().equals(done.runId())
              || !judged.add(result.getChunk() + "/" + result.getTablePartition())) {
            continue;
          }
          partsOf.put(result.getChunk(), result.getPartitionCount());
          lastMs = System.currentTimeMillis();
          if (result.getState() != ChunkState.VERIFIED
              || !result.getFailedKeys().isEmpty()
              || !result.getMissedKeys().isEmpty()
              || !result.getExtraKeys().isEmpty()) {
            throw new IllegalStateException("a chunk not verified in sync: " + result);
          }
          matched += result.getCounts().getMatched();
        }
      }
      if (matched != rows) {
        throw new IllegalStateException(
            matched + " of " + rows + " rows matched: the others were in flight, not compared");
      }
      double seconds = (lastMs - startMs) / 1000.0;
      say(
          String.format(
              Locale.ROOT, "  last verdict after %.2f s (%d verdicts)", seconds, judged.size()));
      return new Timed(seconds, done.chunks());
    }
  }

  private Map<String, String> task(Source source) {
    Map<String, String> task = source.connection();
    task.put("tables", TABLE);
    task.put("task.name", "peer-" + source.prefix);
    task.put("progress", "off");
    task.put("deep", "100");
    task.put("chunk", Integer.toString(chunk));
    task.put("targets", TARGET);
    task.putAll(compareSettings);
    return task;
  }

  private void startCapture(Map<String, String> settings) throws Exception {
    Capture started = new Capture(CaptureConfig.of(settings));
    capture = started;
    captureThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "peer-capture"));
    captureRun =
        captureThread.submit(
            () -> {
              started.run();
              return null;
            });
    awaitUntil("the capture streams", () -> started.awaitStreaming(Duration.ofMillis(200)));
  }

  private TargetsConfig ownTargets(Source own, JdbcServer server, String db, Path state) {
    Map<String, String> file = common(own, server, db, state);
    file.put("target." + TARGET + ".application.id", own.prefix + "-verify");
    return TargetsConfig.of(file);
  }

  private TargetsConfig stockTargets(
      Source stock,
      JdbcServer server,
      String db,
      Path state,
      String sourceName,
      String sinkName,
      Map<String, String> converters) {
    Map<String, String> file = common(stock, server, db, state);
    file.put("target." + TARGET + ".application.id", stock.prefix + "-verify");
    file.put("target." + TARGET + ".mode", "verify-only");
    file.put("target." + TARGET + ".follow.group", "connect-" + sinkName);
    file.put("connect.connector", sourceName);
    file.put("connect.offsets.topic", env.connect().internalTopics().get(1));
    converters.forEach((k, v) -> file.put("connect." + k, v));
    return TargetsConfig.of(file);
  }

  private Map<String, String> common(Source source, JdbcServer server, String db, Path state) {
    Map<String, String> file = new HashMap<>();
    file.put("topic.prefix", source.prefix);
    file.put("bootstrap.servers", env.kafka().bootstrapServers());
    file.put("schema.registry.url", env.registry().confluentApiUrl());
    file.put("tables", TABLE);
    file.put("report.aggregate", "false");
    file.put("state.dir", state.toString());
    String at = "target." + TARGET + ".";
    file.put(at + "url", server.jdbcUrl(db));
    file.put(at + "user", server.user());
    file.put(at + "password", server.password());
    if (server.component() == Component.MARIADB) {
      file.put(at + "table." + TABLE, db + ".narrow");
    }
    return file;
  }

  private Map<String, String> sink(
      Source stock, JdbcServer server, String db, Map<String, String> converters) {
    Map<String, String> config =
        StockConnectors.jdbcSink(server, db, stock.prefix + "." + TABLE, "narrow");
    config.putAll(converters);
    config.put("tasks.max", Integer.toString(partitions));
    return config;
  }

  /** Waits until the topic's partitions end at {@code rows} records or more in all. */
  private void awaitRecords(String topic) throws Exception {
    Map<String, Object> settings =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      awaitUntil(
          rows + " records on " + topic,
          () -> {
            List<TopicPartition> parts =
                consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            return consumer.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum()
                >= rows;
          });
    }
  }

  /** Waits until the target database holds every row; a verifier given must stay healthy. */
  private void awaitRows(JdbcServer server, String db, RunningVerifier verifier) throws Exception {
    awaitUntil(
        rows + " rows on " + db,
        () -> {
          if (verifier != null) {
            verifier.requireHealthy();
          }
          try (Connection c = server.connect(db);
              Statement s = c.createStatement();
              ResultSet rs = s.executeQuery("SELECT count(*) FROM narrow")) {
            rs.next();
            return rs.getLong(1) >= rows;
          }
        });
  }

  /** Whether the connector and its tasks run (not yet known right after its creation: false). */
  private static boolean running(ConnectClient connect, String name) {
    try {
      return connect.status(name).allIn("RUNNING");
    } catch (ConnectClient.RequestFailed notYet) {
      return false;
    }
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private void awaitUntil(String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + START.toNanos() + Duration.ofSeconds(rows / 500).toNanos();
    while (!condition.holds()) {
      if (stopped) {
        throw new IllegalStateException("stopped while waiting for " + what);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  private void requireHealthy() throws Exception {
    verifiers.forEach(RunningVerifier::requireHealthy);
    if (captureRun != null && captureRun.isDone()) {
      captureRun.get();
      throw new IllegalStateException("the capture stopped");
    }
  }

  private KafkaConsumer<String, ChunkResult> resultsConsumer(String topic) {
    SpecificAvroDeserializer<ChunkResult> values =
        new SpecificAvroDeserializer<>(ChunkResult.class);
    values.configure(Map.of("schema.registry.url", env.registry().confluentApiUrl()), false);
    KafkaConsumer<String, ChunkResult> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "peer-results-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                "500"),
            new StringDeserializer(),
            values);
    consumer.subscribe(List.of(topic));
    return consumer;
  }

  /** A source database of one pipeline, with its own topic prefix. */
  private record Source(EmbeddedEnvironment env, String prefix, String database) {
    static Source create(EmbeddedEnvironment env, String stem) {
      String prefix = stem + Long.toString(System.nanoTime() % 1_000_000, 36);
      return new Source(env, prefix, env.sourcePostgres().createDatabase("source_" + prefix));
    }

    void sql(String statement) throws SQLException {
      execute(env.sourcePostgres(), database, statement);
    }

    boolean any(String query) throws SQLException {
      try (Connection c = env.sourcePostgres().connect(database);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(query)) {
        return rs.next();
      }
    }

    /** The settings the capture, the compare and the verifiers share. */
    Map<String, String> connection() {
      Map<String, String> settings = new HashMap<>();
      settings.put("topic.prefix", prefix);
      settings.put("bootstrap.servers", env.kafka().bootstrapServers());
      settings.put("schema.registry.url", env.registry().confluentApiUrl());
      settings.put("source.hostname", env.sourcePostgres().host());
      settings.put("source.port", Integer.toString(env.sourcePostgres().port()));
      settings.put("source.database", database);
      settings.put("source.user", env.sourcePostgres().user());
      settings.put("source.password", env.sourcePostgres().password());
      return settings;
    }

    /** Debezium's PostgreSQL connector on these tables, as a platform team configures it. */
    Map<String, String> connector(String slot, String tables) {
      return StockConnectors.debeziumPostgres(env.sourcePostgres(), database, prefix, slot, tables);
    }
  }

  private static void execute(JdbcServer server, String db, String sql) throws SQLException {
    try (Connection c = server.connect(db);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static void print(Figures f) {
    double ownApply = f.rows() / f.ownApplySeconds();
    double sinkApply = f.rows() / f.sinkApplySeconds();
    double ownCompare = f.rows() / f.ownCompareSeconds();
    double stockCompare = f.rows() / f.connectCompareSeconds();
    System.out.printf(
        Locale.ROOT,
        "%n%,d rows of narrow, target %s, %d partitions per table topic, %d chunks%n%n",
        f.rows(),
        f.target(),
        f.partitions(),
        f.chunks());
    System.out.println("| measured | cdc-compare | Debezium on Kafka Connect | ratio | goal |");
    System.out.println("|---|---|---|---|---|");
    System.out.printf(
        Locale.ROOT,
        "| apply from a full topic (own verifier / JDBC sink), rows/s | %,.0f (%.1f s) | %,.0f"
            + " (%.1f s) | %.2f | ≥ 1.0 |%n",
        ownApply,
        f.ownApplySeconds(),
        sinkApply,
        f.sinkApplySeconds(),
        ownApply / sinkApply);
    System.out.printf(
        Locale.ROOT,
        "| full compare → last verdict (own capture / sink-written target), rows/s | %,.0f (%.1f s)"
            + " | %,.0f (%.1f s) | %.2f | ≥ 0.8 |%n",
        ownCompare,
        f.ownCompareSeconds(),
        stockCompare,
        f.connectCompareSeconds(),
        stockCompare / ownCompare);
    double ownAgain = f.rows() / f.ownAgainSeconds();
    double stockAgain = f.rows() / f.connectAgainSeconds();
    System.out.printf(
        Locale.ROOT,
        "| the same compare again (each verifier has read its table topic), rows/s | %,.0f (%.1f s)"
            + " | %,.0f (%.1f s) | %.2f | ≥ 0.8 |%n",
        ownAgain,
        f.ownAgainSeconds(),
        stockAgain,
        f.connectAgainSeconds(),
        stockAgain / ownAgain);
  }

  private static void say(String line) {
    System.err.println(line);
  }

  @Override
  public void stop() {
    stopped = true;
    CompareRun running = compare;
    if (running != null) {
      running.stop();
    }
    close();
  }

  @Override
  public boolean stopped() {
    return stopped;
  }

  @Override
  public synchronized void close() {
    for (RunningVerifier v : verifiers) {
      v.close();
    }
    verifiers.clear();
    Capture running = capture;
    capture = null;
    if (running != null) {
      running.stop();
      try {
        captureRun.get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("the capture stopped with: " + e);
      }
      captureThread.shutdownNow();
    }
    EmbeddedEnvironment started = env;
    env = null;
    if (started != null) {
      started.close();
    }
  }
}
