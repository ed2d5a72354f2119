package io.cdccompare.producer.compare;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.TaskPositions.Position;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.PgCatalog;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a full compare task (docs/design.md, "Chunks, notes and the in-flight window"): table
 * after table, chunk after chunk, commit the OPEN note, read and hash the chunk in one snapshot,
 * write its hash records and wait for the acknowledgements, then commit the CLOSE note with the
 * position after the chunk. The second half of a chunk (hash records, CLOSE) runs on the {@link
 * ChunkCloser}'s thread while this thread opens and reads the next one, so at most two chunks of a
 * table are open at once ({@link io.cdccompare.core.chunk.ChunkWindow}) and the broker's
 * acknowledgements do not hold the scan up.
 *
 * <p>Everything the configuration names is checked first (tables, columns, keys, captured topics);
 * a problem stops the run before anything is written to the source or to Kafka. A stopped run
 * (Ctrl-C, {@link #stop()}, or a crash) continues after its last closed chunk when started again; a
 * table whose key or compared columns changed meanwhile restarts from its first key under a new run
 * id, and says so. Two processes never run the same task at once (a source advisory lock).
 *
 * <p>It is a little over 300 lines because it also holds the preparation that key-list and
 * incremental runs share with it (resolving the tables, the scan driver's settings, a run under a
 * lock its caller holds), so that every kind of run checks the same things in the same order.
 */
public final class CompareRun {
  private static final Logger LOG = LoggerFactory.getLogger(CompareRun.class);
  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /**
   * The scan's driver settings: server-prepared statements from the first execution, so that
   * numbers and dates come in PostgreSQL's binary format instead of text to parse.
   */
  static final java.util.Properties SCAN_DRIVER = new java.util.Properties();

  static {
    SCAN_DRIVER.setProperty("prepareThreshold", "-1");
  }

  private final CompareConfig config;
  private final boolean startOver;
  private final List<TableName> only;
  private final boolean lockHeld;
  private final CompareMeters meters;
  private volatile boolean stopping;
  private volatile ChunkListener listener = (table, chunk) -> {};
  private volatile String taskRunId;

  /**
   * Called after a chunk's OPEN note is committed and before the chunk is read, on the run's
   * thread: a test can change rows there to put them in flight, an operator tool can trace.
   */
  @FunctionalInterface
  public interface ChunkListener {
    void opened(TableName table, long chunk) throws Exception;
  }

  /**
   * @param startOver begin a new run even if the last one stopped before the end
   */
  public CompareRun(CompareConfig config, boolean startOver) {
    this(config, startOver, CompareMeters.none(config.taskName()));
  }

  /** A run that records its progress in {@code meters} ({@code --metrics-port}). */
  public CompareRun(CompareConfig config, boolean startOver, CompareMeters meters) {
    this(config, startOver, null, false, meters);
  }

  /**
   * A run of some of the task's tables, for an {@link IncrementalRun}'s tables without a completed
   * run.
   *
   * @param only the tables to compare, in the task's order; null for all
   * @param lockHeld whether the caller holds the task's lock already (the run then takes none)
   * @param meters where its progress is recorded
   */
  CompareRun(
      CompareConfig config,
      boolean startOver,
      List<TableName> only,
      boolean lockHeld,
      CompareMeters meters) {
    this.meters = meters;
    this.config = config;
    this.startOver = startOver;
    this.only = only == null ? null : List.copyOf(only);
    this.lockHeld = lockHeld;
  }

  /** What a run did, per table. */
  public record Summary(
      String taskRunId, boolean resumed, boolean complete, List<TableDone> tables) {}

  /** What a run did with one table; counts include an earlier, stopped part of the same run. */
  public record TableDone(
      TableName table,
      String runId,
      long chunks,
      long rows,
      long comparedRows,
      boolean restarted) {}

  /** Sets the listener told of every opened chunk; returns this run. */
  public CompareRun onChunkOpened(ChunkListener listener) {
    this.listener = listener;
    return this;
  }

  /** Asks the run to stop after the chunk it is reading is closed. Thread-safe. */
  public void stop() {
    stopping = true;
  }

  /**
   * Runs the task to its end or until {@link #stop()}.
   *
   * @throws ConfigException for a table, column, key or topic the configuration gets wrong
   * @throws SQLException naming the task, the source database and the run to resume when the
   *     connection to the source is lost once the run started (a source restart): the run stops,
   *     its closed chunks stay closed, and running it again resumes after the last of them
   */
  public Summary run() throws Exception {
    try {
      return runTask();
    } catch (Exception e) {
      java.util.Optional<SQLException> lost = LostSourceConnection.in(e);
      if (lost.isEmpty() || taskRunId == null) {
        throw e; // before the run started, a refused connection says so itself
      }
      throw LostSourceConnection.describe(
          config.taskName(), config.source(), taskRunId, lost.get(), e);
    }
  }

  private Summary runTask() throws Exception {
    String task = config.taskName();
    try (Connection catalog = config.source().connect("cdc-compare-task-" + task);
        Connection scan = config.source().connect("cdc-compare-scan-" + task, SCAN_DRIVER);
        TaskLock lock = TaskLock.of(config, lockHeld);
        TableTopicOffsets offsets = new TableTopicOffsets(config);
        TaskPositions positions =
            new TaskPositions(config.source().connect("cdc-compare-positions-" + task), task);
        ChunkNotes notes =
            new ChunkNotes(config.source().connect("cdc-compare-notes-" + task), task);
        ChunkNotes closes =
            new ChunkNotes(config.source().connect("cdc-compare-closes-" + task), task)) {
      List<ScanPlan> plans = resolve(config, catalog, tasks());
      int maxRecordBytes;
      try (TopicCheck topics = new TopicCheck(config)) {
        topics.requireReachable();
        topics.requireTableTopics(plans);
        if (lock != null) {
          lock.take();
        }
        maxRecordBytes = topics.ensureHashesTopic();
      }
      positions.ensureTables();
      RunStart start = start(positions, plans);
      taskRunId = start.taskRunId();
      ExecutorService hashing = thread("compare-hash-" + task);
      try (VerdictFlow flow = flow(config);
          KafkaProducer<String, HashRecord> producer = producer(config, maxRecordBytes);
          KafkaClientMetrics producerMetrics = new KafkaClientMetrics(producer);
          ChunkCloser closer =
              new ChunkCloser(
                  thread("compare-close-" + task),
                  new HashRecordWriter(producer, config.hashesTopic(), maxRecordBytes)
                      .recordingIn(meters),
                  closes,
                  config.hashesTopic())) {
        producerMetrics.bindTo(meters.registry());
        if (flow != null) {
          flow.recordingIn(meters);
        }
        TableCompare tables =
            new TableCompare(
                config,
                () -> stopping,
                listener,
                new TableCompare.Parts(
                    start.taskRunId(),
                    start.positions(),
                    positions,
                    notes,
                    hashing,
                    closer,
                    flow,
                    Progress.of(task, config.progress(), config.progressInterval())
                        .recordingIn(meters),
                    catalog,
                    scan,
                    offsets));
        List<TableDone> done = new ArrayList<>();
        for (ScanPlan plan : plans) {
          if (stopping) {
            break;
          }
          done.add(tables.compare(plan));
        }
        boolean complete = !stopping;
        LOG.info(
            "task={} run={} {} tables={}",
            task,
            start.taskRunId(),
            complete ? "finished" : "stopped",
            done.size());
        return new Summary(start.taskRunId(), start.resumed(), complete, done);
      } finally {
        hashing.shutdownNow();
      }
    }
  }

  /** The task's tables this run compares, in the task's order. */
  private List<TableTask> tasks() {
    return only == null
        ? config.tables()
        : config.tables().stream().filter(t -> only.contains(t.table())).toList();
  }

  /** A thread of the run's own (a daemon: it never keeps a stopping JVM alive). */
  static ExecutorService thread(String name) {
    return Executors.newSingleThreadExecutor(daemons(name));
  }

  /** {@code count} threads of the run's own, daemons named {@code name}. */
  static ExecutorService threads(String name, int count) {
    return Executors.newFixedThreadPool(count, daemons(name));
  }

  private static ThreadFactory daemons(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * The scan plans of {@code tasks} (tables of {@code config}), every name checked against the
   * source catalog; the key-list run ({@link KeyListRun}) prepares its tables with it too.
   *
   * @throws ConfigException for a missing note table, table, column or key, or an uncaptured table
   */
  static List<ScanPlan> resolve(CompareConfig config, Connection catalog, List<TableTask> tasks)
      throws SQLException {
    if (!PgCatalog.tableExists(catalog, NoteTable.NAME) && config.externalCapture()) {
      NoteTable.create(catalog);
      throw new ConfigException(
          "source database "
              + config.source().database()
              + " had no "
              + NoteTable.NAME
              + ": created it now. Add it to the Debezium connector's table.include.list (and to"
              + " its publication), wait until the connector runs with it, then run again");
    }
    if (!PgCatalog.tableExists(catalog, NoteTable.NAME)) {
      throw new ConfigException(
          "source database "
              + config.source().database()
              + " has no "
              + NoteTable.NAME
              + ": start the capture (topic.prefix="
              + config.topicPrefix()
              + ") before comparing");
    }
    SourceTables tables =
        new SourceTables(
            catalog,
            config.source().database(),
            config.topicPrefix(),
            config.hashFormat(),
            config.hashFunction(),
            config.externalCapture());
    List<ScanPlan> plans = new ArrayList<>();
    for (TableTask task : tasks) {
      plans.add(tables.resolve(task));
    }
    return plans;
  }

  /** Which run this is and where each table starts. */
  private record RunStart(String taskRunId, boolean resumed, Map<TableName, Position> positions) {}

  private RunStart start(TaskPositions positions, List<ScanPlan> plans) throws SQLException {
    Map<TableName, Position> stored = positions.load();
    List<TableName> tables = plans.stream().map(p -> p.task().table()).toList();
    String stopped =
        tables.stream()
            .map(stored::get)
            .filter(p -> p != null && p.unfinished())
            .map(Position::taskRunId)
            .findFirst()
            .orElse(null);
    if (stopped != null && !startOver) {
      LOG.info("task={} run={} resumes after its last closed chunk", config.taskName(), stopped);
      return new RunStart(stopped, true, stored);
    }
    String taskRunId = newRunId();
    positions.startRun(taskRunId, TaskKind.FULL, tables);
    LOG.info("task={} run={} starts tables={}", config.taskName(), taskRunId, tables);
    return new RunStart(taskRunId, false, positions.load());
  }

  /** Flow control against the task's targets, or null when it names none or it is off. */
  static VerdictFlow flow(CompareConfig config) {
    if (config.flowChunksAhead() == 0) {
      return null;
    }
    Map<String, Object> consumer = new HashMap<>(config.withPrefix("admin."));
    consumer.keySet().retainAll(ConsumerConfig.configNames());
    consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return new VerdictFlow(
        config.taskName(),
        config.targets(),
        config.flowChunksAhead(),
        config.flowStallTimeout(),
        config.resultsTopic(),
        consumer,
        registrySettings(config));
  }

  /** The schema registry settings of the Avro serdes, from the task's registry keys. */
  private static Map<String, Object> registrySettings(CompareConfig config) {
    return RegistryClientConfig.serdeSettings(
        config.schemaRegistryUrl(), config.withPrefix(RegistryClientConfig.PREFIX));
  }

  /**
   * The hash-record producer. Its batches are kept within the largest record the topic accepts: the
   * topic's {@code max.message.bytes} limits a whole batch, so batching several parts of a split
   * record together would be refused.
   */
  static KafkaProducer<String, HashRecord> producer(CompareConfig config, int maxRecordBytes) {
    Map<String, Object> props = new HashMap<>(config.withPrefix("producer."));
    int batchSize =
        props.containsKey(ProducerConfig.BATCH_SIZE_CONFIG)
            ? Math.min(
                Integer.parseInt(props.get(ProducerConfig.BATCH_SIZE_CONFIG).toString().strip()),
                maxRecordBytes)
            : maxRecordBytes;
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(batchSize));
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    SpecificAvroSerializer<HashRecord> values = new SpecificAvroSerializer<>();
    values.configure(registrySettings(config), false);
    // the schema's id now, not on the first hash record: a short run waits for nothing then
    values.prepare(config.hashesTopic(), HashRecord.getClassSchema());
    return new KafkaProducer<>(props, new StringSerializer(), values);
  }

  /** A new run id: the UTC start time and 6 random hex digits. */
  static String newRunId() {
    byte[] random = new byte[3];
    ThreadLocalRandom.current().nextBytes(random);
    return RUN_TIME.format(Instant.now()) + "-" + HexFormat.of().formatHex(random);
  }
}
