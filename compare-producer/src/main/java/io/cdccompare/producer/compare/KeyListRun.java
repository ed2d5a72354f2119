package io.cdccompare.producer.compare;

import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.CompareRun.ChunkListener;
import io.cdccompare.producer.compare.HashRecordWriter.ChunkId;
import io.cdccompare.producer.compare.KeyListReader.KeyListRead;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of key-list chunks of a task (docs/design.md, "Key-list chunks"): a recheck ({@code
 * RECHECK}, run id {@code RecheckRuns.runId(rechecked, attempt)}), an incremental run ({@code
 * INCREMENTAL}) or a repair's check ({@code REPAIR}, whose targets also delete the keys the source
 * lacks: {@link RepairRun}) compares exactly the keys it is given, per table a list of chunks
 * ({@link KeyList}). Table after table, chunk after chunk: wait for flow control when the task
 * names targets, commit the OPEN note, read the chunk's keys on the source by key in one snapshot
 * ({@link KeyListReader}), write its hash records (present keys and hashes, absent keys, the
 * targets of each key) and wait for the acknowledgements, then commit the CLOSE note without a
 * compared range.
 *
 * <p>It is prepared as a full run is: the task's lock is taken (a second run of the task at once is
 * refused naming it), every table is checked against the source catalog and its topic against
 * Kafka, and every key against the table's key columns, before anything is written. Unlike a full
 * run it keeps no position: a key-list run is short, leaves the task's resume positions as they
 * are, and after a failure is simply run again (its hash records are overwritten under the same
 * keys). Its chunks are read and closed one after the other, one open at a time.
 */
public final class KeyListRun {
  private static final Logger LOG = LoggerFactory.getLogger(KeyListRun.class);

  private final CompareConfig config;
  private final String runId;
  private final TaskKind kind;
  private final Map<TableName, List<KeyList>> chunks;
  private volatile boolean stopping;
  private volatile ChunkListener listener = (table, chunk) -> {};
  private CompareMeters meters;
  private boolean lockHeld;
  private Prepared prepared;

  /** What a run did, per table, in the task's table order. */
  public record Summary(String runId, TaskKind kind, boolean complete, List<TableDone> tables) {}

  /**
   * What a run did with one table.
   *
   * @param keys the keys its closed chunks asked for
   * @param present those the source held, compared by their hashes
   * @param absent those the source did not hold
   */
  public record TableDone(TableName table, long chunks, long keys, long present, long absent) {}

  /**
   * @param config the task file; every table of {@code chunks} must be one of its tables
   * @param runId the run's id: for a recheck {@code RecheckRuns.runId(rechecked, attempt)}
   * @param kind {@code RECHECK}, {@code INCREMENTAL} or {@code REPAIR}
   * @param chunks per table, its key-list chunks in the order they are compared
   */
  public KeyListRun(
      CompareConfig config, String runId, TaskKind kind, Map<TableName, List<KeyList>> chunks) {
    if (kind == TaskKind.FULL) {
      throw new IllegalArgumentException("a key-list run is RECHECK, INCREMENTAL or REPAIR");
    }
    if (runId == null || runId.isBlank()) {
      throw new IllegalArgumentException("a key-list run needs a run id");
    }
    this.config = config;
    this.meters = CompareMeters.none(config.taskName());
    this.runId = runId;
    this.kind = kind;
    this.chunks = new LinkedHashMap<>();
    chunks.forEach((table, lists) -> this.chunks.put(table, List.copyOf(lists)));
  }

  /**
   * The run's tables resolved and their topics and the hashes topic checked by its caller, which
   * holds the task's lock (an {@link IncrementalRun}, a {@link RepairRun}): the run neither
   * resolves nor checks them again. Returns this run.
   *
   * @param plans the plans of the run's tables
   * @param maxRecordBytes the hashes topic's largest record ({@link TopicCheck#ensureHashesTopic})
   */
  KeyListRun prepared(List<ScanPlan> plans, int maxRecordBytes) {
    return prepared(plans, maxRecordBytes, null);
  }

  /**
   * As {@link #prepared(List, int)}, and the run reads and notes on its caller's source sessions
   * instead of opening two of its own (each new session costs a log-in: SCRAM's key derivation on
   * both sides, a few ms to tens of ms, which an incremental run of a few keys pays in full).
   *
   * @param sessions the caller's sessions, which the run leaves open; {@code null}: its own
   */
  KeyListRun prepared(List<ScanPlan> plans, int maxRecordBytes, Sessions sessions) {
    return prepared(plans, maxRecordBytes, sessions, null);
  }

  /**
   * As {@link #prepared(List, int, Sessions)}, and the run writes its hash records with its
   * caller's producer, made while the caller's start was checked ({@link KafkaStart}), and leaves
   * it open.
   *
   * @param producer the caller's hash-record producer; {@code null}: its own
   */
  KeyListRun prepared(
      List<ScanPlan> plans,
      int maxRecordBytes,
      Sessions sessions,
      KafkaProducer<String, HashRecord> producer) {
    this.prepared = new Prepared(List.copyOf(plans), maxRecordBytes, sessions, producer);
    return underHeldLock();
  }

  /**
   * Source sessions a caller lends the run.
   *
   * @param scan a session the run reads the chunks' keys on, opened with {@link
   *     CompareRun#SCAN_DRIVER}; the run sets it to repeatable read, autocommit off
   * @param bookkeeping a session of the task's bookkeeping ({@link TaskBookkeeping}) the run
   *     commits its notes on
   */
  record Sessions(Connection scan, Connection bookkeeping) {}

  private record Prepared(
      List<ScanPlan> plans,
      int maxRecordBytes,
      Sessions sessions,
      KafkaProducer<String, HashRecord> producer) {}

  /**
   * Records the run's progress in {@code meters}: each table's keys as its rows, counted as its
   * chunks close. Returns this run.
   */
  public KeyListRun recordingIn(CompareMeters meters) {
    this.meters = meters;
    return this;
  }

  /** Sets the listener told of every opened chunk; returns this run. */
  public KeyListRun onChunkOpened(ChunkListener listener) {
    this.listener = listener;
    return this;
  }

  /**
   * Runs under the task's lock its caller holds (an {@link IncrementalRun}, a {@link RepairRun}):
   * the run takes none. Returns this run.
   */
  KeyListRun underHeldLock() {
    this.lockHeld = true;
    return this;
  }

  /** Asks the run to stop after the chunk it is reading is closed. Thread-safe. */
  public void stop() {
    stopping = true;
  }

  /**
   * Runs every chunk, or until {@link #stop()}.
   *
   * @throws ConfigException for a table that is not the task's, or a table, column, key or topic
   *     the source or Kafka does not have as the task says
   * @throws IllegalStateException when another process runs the task
   */
  public Summary run() throws Exception {
    String task = config.taskName();
    List<TableTask> tasks = tasks();
    Sessions lent = prepared != null ? prepared.sessions() : null;
    try (Connection ownScan =
            lent != null
                ? null
                : config.source().connect("cdc-compare-scan-" + task, CompareRun.SCAN_DRIVER);
        TaskLock lock = TaskLock.of(config, lockHeld);
        KeyListNotes ownNotes =
            lent != null
                ? null
                : new KeyListNotes(config.source().connect("cdc-compare-notes-" + task), task)) {
      Connection scan = lent != null ? lent.scan() : ownScan;
      KeyListNotes notes = lent != null ? new KeyListNotes(lent.bookkeeping(), task) : ownNotes;
      Prepared ready = prepared != null ? prepared : prepare(tasks, lock);
      List<ScanPlan> plans = ready.plans();
      if (prepared != null) {
        requireKeys(plans);
      }
      int maxRecordBytes = ready.maxRecordBytes();
      LOG.info("task={} run={} kind={} starts tables={}", task, runId, kind, chunks.keySet());
      KafkaProducer<String, HashRecord> lentProducer = ready.producer();
      try (VerdictFlow flow = needsFlow() ? CompareRun.flow(config) : null;
          KafkaProducer<String, HashRecord> ownProducer =
              lentProducer != null ? null : CompareRun.producer(config, maxRecordBytes)) {
        HashRecordWriter writer =
            new HashRecordWriter(
                lentProducer != null ? lentProducer : ownProducer,
                config.hashesTopic(),
                maxRecordBytes);
        List<TableDone> done = new ArrayList<>();
        for (ScanPlan plan : plans) {
          if (stopping) {
            break;
          }
          KeyListReader reader =
              new KeyListReader(
                  scan,
                  plan,
                  new ExactSnapshot(scan, config.readVisibilityTimeout(), () -> stopping));
          done.add(compare(plan, reader, writer, notes, flow));
        }
        boolean complete = !stopping;
        LOG.info(
            "task={} run={} kind={} {} tables={}",
            task,
            runId,
            kind,
            complete ? "finished" : "stopped",
            done.size());
        return new Summary(runId, kind, complete, done);
      }
    }
  }

  /**
   * Resolves the run's tables and checks their keys, Kafka and the table topics, takes the lock
   * (unless its caller holds it) and makes sure of the hashes topic.
   */
  private Prepared prepare(List<TableTask> tasks, TaskLock lock) throws Exception {
    List<ScanPlan> plans;
    try (Connection catalog = config.source().connect("cdc-compare-task-" + config.taskName())) {
      plans = CompareRun.resolve(config, catalog, tasks);
    }
    requireKeys(plans);
    try (TopicCheck topics = new TopicCheck(config)) {
      topics.requireReachable();
      topics.requireTableTopics(plans);
      if (lock != null) {
        lock.take();
      }
      return new Prepared(plans, topics.ensureHashesTopic(), null, null);
    }
  }

  private void requireKeys(List<ScanPlan> plans) {
    for (ScanPlan plan : plans) {
      KeyListReader.requireKeys(plan, chunks.get(plan.task().table()));
    }
  }

  /**
   * Whether flow control can make the run wait: only when a table has more chunks than the run may
   * note ahead of the verdicts (a short run does without the results consumer).
   */
  private boolean needsFlow() {
    int ahead = config.flowChunksAhead();
    return ahead > 0 && chunks.values().stream().anyMatch(lists -> lists.size() > ahead);
  }

  /** The task's table settings of the run's tables, in the task's order. */
  private List<TableTask> tasks() {
    Set<TableName> wanted = chunks.keySet();
    List<TableTask> tasks =
        config.tables().stream().filter(t -> wanted.contains(t.table())).toList();
    for (TableName table : wanted) {
      if (tasks.stream().noneMatch(t -> t.table().equals(table))) {
        throw new ConfigException(
            "table "
                + table
                + " is not one of the tables of task "
                + config.taskName()
                + " ("
                + CompareConfig.TABLES
                + "="
                + config.tables().stream().map(t -> t.table().toString()).toList()
                + "): a key-list run compares only tables of its task");
      }
    }
    return tasks;
  }

  /** Compares one table's chunks, one after the other, or until the run is asked to stop. */
  private TableDone compare(
      ScanPlan plan,
      KeyListReader reader,
      HashRecordWriter writer,
      KeyListNotes notes,
      VerdictFlow flow)
      throws Exception {
    TableName table = plan.task().table();
    String fingerprint = plan.shape().fingerprint();
    String shape = plan.shape().toJson();
    long chunk = 0;
    long keys = 0;
    long present = 0;
    long absent = 0;
    List<KeyList> lists = chunks.get(table);
    meters.tableStarted(table, lists.stream().mapToLong(KeyList::size).sum(), 0);
    for (KeyList list : lists) {
      if (stopping) {
        break;
      }
      if (flow != null && chunk >= flow.ahead()) {
        flow.awaitVerified(runId, table.toString(), chunk - flow.ahead(), () -> stopping);
        if (stopping) {
          break;
        }
      }
      notes.open(table, runId, kind, chunk, fingerprint, shape);
      listener.opened(table, chunk);
      KeyListRead read = reader.read(list, "table " + table + " " + kind + " chunk " + chunk);
      if (read == null) {
        break; // stopped before the read: the chunk stays OPEN, without a verdict
      }
      ChunkId id = new ChunkId(config.taskName(), runId, kind, table.toString(), chunk, 0, 1);
      List<HashRecordLocation> locations =
          writer.write(id, plan, read.read(), read.absentKeys(), list);
      notes.close(table, runId, chunk, read.read(), config.hashesTopic(), locations);
      if (plan.externalCapture()) {
        notes.tick(table);
      }
      chunk++;
      keys += list.size();
      present += read.read().comparedRows();
      absent += read.absentKeys().size();
      meters.rowsDone(table, keys, chunk == lists.size());
    }
    LOG.info(
        "task={} table={} run={} kind={} {} chunks={} keys={} present={} absent={}",
        config.taskName(),
        table,
        runId,
        kind,
        stopping ? "stopped" : "done",
        chunk,
        keys,
        present,
        absent);
    return new TableDone(table, chunk, keys, present, absent);
  }
}
