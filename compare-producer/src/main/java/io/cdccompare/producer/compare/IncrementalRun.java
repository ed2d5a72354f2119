package io.cdccompare.producer.compare;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.stream.TopicOffsets;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.CompareRun.ChunkListener;
import io.cdccompare.producer.compare.TableTopicOffsets.TopicState;
import io.cdccompare.producer.compare.TaskPositions.Position;
import io.cdccompare.schemas.avro.TaskKind;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An incremental run of a task ({@code task.kind=incremental}; compare-producer/README.md,
 * "Incremental runs"): per table, only the keys whose rows changed since the table's last completed
 * run — inserted, updated or deleted — read from the table topic between that run's start offsets
 * (the table's completed offsets) and the topic's end offsets now, and compared as key-list chunks
 * of kind {@code INCREMENTAL} at every target ({@link KeyListRun}). A key deleted on the source is
 * an absent key: a target that still has it reports it extra. Every changed key is read, none
 * sampled, so the cost follows the number of changed keys, not the table.
 *
 * <p>The order of a run, under the task's lock: every table's topic is checked first — a table
 * whose range is no longer all there (recreated or compacted topic, another partition count, older
 * records gone) stops the run with an {@link IncrementalRangeLostException} before anything is
 * written — then the changed keys of every such table are read (the distinct keys only are held),
 * then compared; a table whose run completes gets this run's start offsets as its completed
 * offsets, a table without a changed key at once. A table that has no completed run (or whose key
 * or compared columns changed since) gets a full run ({@link CompareRun}, resumed if one was
 * stopped), and the summary says so. The run's start offsets are only ever written as completed
 * offsets: a full run of the task that was stopped keeps its own start offsets and resume position.
 *
 * <p>It is a little over 300 lines because the summary of each table, with the one line it prints
 * for each outcome, stays beside the run that decides the outcome.
 */
public final class IncrementalRun {
  private static final Logger LOG = LoggerFactory.getLogger(IncrementalRun.class);

  /**
   * The most keys in one chunk of an incremental run, below the table's {@code chunk} setting: the
   * keys of a chunk are looked up by key (100 per statement) in one source snapshot, which should
   * stay short.
   */
  public static final int MAX_CHUNK_KEYS = 10_000;

  private final CompareConfig config;
  private final CompareMeters meters;
  private volatile boolean stopping;
  private volatile Runnable stopPart = () -> {};
  private volatile ChunkListener listener = (table, chunk) -> {};

  /** What a run did with a table. */
  public enum Outcome {
    /** The table had no completed run: it got a full run. */
    FULL_RUN,
    /** The table's key or compared columns changed since its last completed run: a full run. */
    FULL_RUN_NEW_SHAPE,
    /** Its changed keys were compared as key-list chunks of kind {@code INCREMENTAL}. */
    INCREMENTAL,
    /** No key changed since its last completed run: nothing compared, its offsets moved on. */
    NO_CHANGE
  }

  /** What a run did, per table, in the task's table order. */
  public record Summary(String runId, boolean complete, List<TableDone> tables) {}

  /**
   * What a run did with one table.
   *
   * @param runId the run its chunks were noted under: the full run's for a full run
   * @param keys the changed keys; for a full run, the rows read
   * @param chunks the chunks closed
   * @param present the changed keys the source holds; for a full run, the rows compared
   * @param absent the changed keys the source no longer holds (deleted since)
   * @param complete whether the table's run completed, so the next incremental run starts here
   */
  public record TableDone(
      TableName table,
      Outcome outcome,
      String runId,
      long keys,
      long chunks,
      long present,
      long absent,
      boolean complete) {

    /** One line for a person. */
    public String describe() {
      String line =
          switch (outcome) {
            case FULL_RUN -> "first incremental run of " + table + ": full run" + fullCounts();
            case FULL_RUN_NEW_SHAPE ->
                table
                    + ": its key or compared columns changed since its last completed run: full run"
                    + fullCounts();
            case INCREMENTAL ->
                table
                    + ": run "
                    + runId
                    + ": "
                    + keys
                    + " changed keys in "
                    + chunks
                    + " chunks ("
                    + present
                    + " on the source, "
                    + absent
                    + " deleted)";
            case NO_CHANGE ->
                table + ": no key changed since its last completed run, nothing to compare";
          };
      return complete ? line : line + "; stopped before its end";
    }

    private String fullCounts() {
      return " (run "
          + runId
          + ", "
          + chunks
          + " chunks, "
          + keys
          + " rows read, "
          + present
          + " compared)";
    }
  }

  /**
   * @param config the task file
   */
  public IncrementalRun(CompareConfig config) {
    this(config, CompareMeters.none(config.taskName()));
  }

  /**
   * @param config the task file
   * @param meters where its progress is recorded ({@code --metrics-port}): the changed keys read as
   *     rows, and the full runs' rows
   */
  public IncrementalRun(CompareConfig config, CompareMeters meters) {
    this.config = config;
    this.meters = meters;
  }

  /** Sets the listener told of every opened chunk; returns this run. */
  public IncrementalRun onChunkOpened(ChunkListener listener) {
    this.listener = listener;
    return this;
  }

  /** Asks the run to stop after the chunk it is reading is closed. Thread-safe. */
  public void stop() {
    stopping = true;
    stopPart.run();
  }

  /** The range one table's changes are read from. */
  private record Range(TableName table, TopicOffsets from, TopicOffsets to, int chunkKeys) {}

  /**
   * Runs the task incrementally, to its end or until {@link #stop()}.
   *
   * @throws IncrementalRangeLostException when a table topic no longer holds every change since the
   *     table's last completed run; nothing was written then
   * @throws ConfigException for a table, column, key or topic the configuration gets wrong
   * @throws IllegalStateException when another process runs the task
   */
  public Summary run() throws Exception {
    String task = config.taskName();
    String runId = CompareRun.newRunId();
    // the catalog session is also the key-list run's scan session, the bookkeeping session also
    // the lock's and its notes' (KeyListRun.Sessions): two log-ins for the whole run, made at once
    // on threads of their own with the lock and the positions (SourceStart), while the Kafka half
    // of the start is asked on threads of its own too (KafkaStart)
    try (SourceStart source = new SourceStart(config);
        TopicCheck topics = new TopicCheck(config);
        TableTopicOffsets offsets = new TableTopicOffsets(config, topics.admin());
        KafkaStart kafka = new KafkaStart(config, topics, offsets)) {
      Connection catalog = source.catalog();
      List<ScanPlan> plans = CompareRun.resolve(config, catalog, config.tables());
      Map<String, TopicState> now = kafka.states(plans);
      source.requireLock();
      int maxRecordBytes = kafka.maxRecordBytes();
      TaskPositions positions = source.positions();
      Map<TableName, Position> stored = source.stored();
      Map<TableName, Outcome> fullRuns = new LinkedHashMap<>();
      List<Range> ranges = ranges(plans, stored, now, fullRuns);
      LOG.info(
          "task={} run={} kind=INCREMENTAL starts incremental={} full={}",
          task,
          runId,
          ranges.stream().map(Range::table).toList(),
          fullRuns.keySet());
      Map<TableName, TableDone> done = new HashMap<>();
      compareChanges(
          runId,
          ranges,
          new ChangedKeyReader(offsets),
          positions,
          done,
          plans,
          new Compared(maxRecordBytes, catalog, kafka));
      compareInFull(fullRuns, positions, done);
      List<TableDone> tables =
          plans.stream().map(p -> done.get(p.task().table())).filter(d -> d != null).toList();
      boolean complete =
          !stopping
              && tables.size() == plans.size()
              && tables.stream().allMatch(TableDone::complete);
      tables.forEach(t -> LOG.info("task={} run={} {}", task, runId, t.describe()));
      LOG.info(
          "task={} run={} kind=INCREMENTAL {} tables={}",
          task,
          runId,
          complete ? "finished" : "stopped",
          tables.size());
      return new Summary(runId, complete, tables);
    }
  }

  /**
   * The range of every table with a usable completed run, each checked to be all there in its topic
   * now ({@link ChangedKeyReader#requireRange}) before anything is written; the other tables go to
   * {@code fullRuns}, with the reason.
   */
  private static List<Range> ranges(
      List<ScanPlan> plans,
      Map<TableName, Position> stored,
      Map<String, TopicState> now,
      Map<TableName, Outcome> fullRuns) {
    List<Range> ranges = new ArrayList<>();
    for (ScanPlan plan : plans) {
      TableName table = plan.task().table();
      Position position = stored.get(table);
      if (position == null || position.completedOffsets() == null) {
        fullRuns.put(table, Outcome.FULL_RUN);
      } else if (position.fingerprint() != null
          && !position.fingerprint().equals(plan.shape().fingerprint())) {
        fullRuns.put(table, Outcome.FULL_RUN_NEW_SHAPE);
      } else {
        TopicState state = now.get(plan.topic());
        ChangedKeyReader.requireRange(table, position.completedOffsets(), state);
        int chunkKeys = Math.min(plan.task().sampling().chunk(), MAX_CHUNK_KEYS);
        ranges.add(new Range(table, position.completedOffsets(), state.end(), chunkKeys));
      }
    }
    return ranges;
  }

  /**
   * What the changed keys are compared with: the hashes topic's largest record, the catalog session
   * the key-list run reads on, and the start that made its producer.
   */
  private record Compared(int maxRecordBytes, Connection catalog, KafkaStart kafka) {}

  /**
   * Reads every range's changed keys, then compares them in one key-list run on the plans already
   * resolved and checked ({@code plans}), reading on the catalog session and noting on the
   * positions' session, writing hash records with the start's producer; a table whose chunks all
   * closed, or that had no changed key, gets its completed offsets moved to the range's end.
   */
  private void compareChanges(
      String runId,
      List<Range> ranges,
      ChangedKeyReader reader,
      TaskPositions positions,
      Map<TableName, TableDone> done,
      List<ScanPlan> plans,
      Compared with)
      throws Exception {
    Map<TableName, List<KeyList>> chunks = new LinkedHashMap<>();
    Map<TableName, Long> changed = new HashMap<>();
    for (Range range : ranges) {
      SortedSet<String> keys = reader.read(range.table(), range.from(), range.to());
      LOG.info(
          "task={} run={} table={} changed_keys={} from=[{}] to=[{}]",
          config.taskName(),
          runId,
          range.table(),
          keys.size(),
          range.from().encode(),
          range.to().encode());
      changed.put(range.table(), (long) keys.size());
      if (!keys.isEmpty()) {
        chunks.put(range.table(), chunks(keys, range.chunkKeys()));
      }
    }
    for (Range range : ranges) {
      if (!chunks.containsKey(range.table())) {
        positions.complete(range.table(), range.to());
        done.put(
            range.table(),
            new TableDone(range.table(), Outcome.NO_CHANGE, runId, 0, 0, 0, 0, true));
      }
    }
    if (chunks.isEmpty() || stopping) {
      return;
    }
    List<ScanPlan> compared =
        plans.stream().filter(p -> chunks.containsKey(p.task().table())).toList();
    KeyListRun keyLists =
        new KeyListRun(config, runId, TaskKind.INCREMENTAL, chunks)
            .recordingIn(meters)
            .prepared(
                compared,
                with.maxRecordBytes(),
                new KeyListRun.Sessions(with.catalog(), positions.connection),
                with.kafka().producer())
            .onChunkOpened(listener);
    stopPart = keyLists::stop;
    if (stopping) {
      keyLists.stop();
    }
    KeyListRun.Summary summary = keyLists.run();
    for (KeyListRun.TableDone table : summary.tables()) {
      boolean complete = table.chunks() == chunks.get(table.table()).size();
      if (complete) {
        Range range =
            ranges.stream().filter(r -> r.table().equals(table.table())).findFirst().orElseThrow();
        positions.complete(table.table(), range.to());
      }
      done.put(
          table.table(),
          new TableDone(
              table.table(),
              Outcome.INCREMENTAL,
              runId,
              changed.get(table.table()),
              table.chunks(),
              table.present(),
              table.absent(),
              complete));
    }
  }

  /** Runs the tables without a usable completed run in full ({@link CompareRun}). */
  private void compareInFull(
      Map<TableName, Outcome> fullRuns, TaskPositions positions, Map<TableName, TableDone> done)
      throws Exception {
    if (fullRuns.isEmpty() || stopping) {
      return;
    }
    CompareRun full =
        new CompareRun(config, false, List.copyOf(fullRuns.keySet()), true, meters)
            .onChunkOpened(listener);
    stopPart = full::stop;
    if (stopping) {
      full.stop();
    }
    CompareRun.Summary summary = full.run();
    Map<TableName, Position> after = positions.load();
    for (CompareRun.TableDone table : summary.tables()) {
      Position position = after.get(table.table());
      boolean complete =
          position != null && position.done() && position.runId().equals(table.runId());
      if (complete && position.completedOffsets() == null) {
        LOG.warn(
            "task={} table={} full run {} completed without recorded start offsets (it was"
                + " started by an earlier version): the next incremental run runs it in full"
                + " again",
            config.taskName(),
            table.table(),
            table.runId());
      }
      done.put(
          table.table(),
          new TableDone(
              table.table(),
              fullRuns.get(table.table()),
              table.runId(),
              table.rows(),
              table.chunks(),
              table.comparedRows(),
              0,
              complete));
    }
  }

  /** The keys in chunks of at most {@code size}, in key text order; empties {@code keys}. */
  private static List<KeyList> chunks(SortedSet<String> keys, int size) {
    List<KeyList> chunks = new ArrayList<>();
    List<String> chunk = new ArrayList<>(Math.min(size, keys.size()));
    for (Iterator<String> it = keys.iterator(); it.hasNext(); ) {
      chunk.add(it.next());
      it.remove();
      if (chunk.size() == size) {
        chunks.add(KeyList.everywhere(chunk));
        chunk = new ArrayList<>();
      }
    }
    if (!chunk.isEmpty()) {
      chunks.add(KeyList.everywhere(chunk));
    }
    return chunks;
  }
}
