package io.cdccompare.report.aggregate;

import io.cdccompare.core.report.ChunkAssembly;
import io.cdccompare.core.report.ReportKey;
import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.core.report.TableRun;
import io.cdccompare.core.report.TargetRun;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns chunk results and noted chunks of one task into report entries and alerts (docs/design.md,
 * "Outcomes of a chunk, per target" and "Several targets"). Fed by task, so it sees every table and
 * target of a task.
 *
 * <ul>
 *   <li>Each (task, table) shows its newest run ({@link TableRun}); a record of an older run is
 *       stale and ignored, one of a newer run restarts the table's totals on every target and
 *       carries the rows of the coverage cycle so far to the new run.
 *   <li>A noted chunk adds its source rows (read, compared) to the run; the first one tells the
 *       run's slice.
 *   <li>A chunk counts on a target once all its partitions reported ({@link ChunkAssembly});
 *       results are deduplicated by partition, noted chunks by chunk number, so replays change
 *       nothing.
 *   <li>Whenever a table's totals or capture count change, the entries of the affected targets are
 *       emitted: the table's ({@code task/target/table}) and the task's ({@code task/target}, every
 *       table summed). A change of capture count or run re-emits every target known for the task,
 *       so a target that has not reported a table yet shows it IN_PROGRESS.
 *   <li>Alerts: one DIFFERENCES per (table, run, target) when the first chunk with differences
 *       completes; one UNVERIFIABLE or SCHEMA_DRIFT per chunk, target and state, at the first
 *       partition result in that state. A STALLED partition counts the chunk unverifiable but
 *       raises nothing here: its verifier raised the STALLED alert itself.
 * </ul>
 *
 * <p>The totals are those of full and incremental runs: the results and noted chunks of a RECHECK
 * or REPAIR run (key-list chunks, docs/design.md "Recheck", "Repair") are left out, so a recheck or
 * a repair never replaces a table's run in the report; {@code compare recheck}, {@code compare
 * repair} and {@code report --keys} read and show their verdicts from the results topic, beside the
 * run they recheck or repair.
 *
 * <p>Times ({@code lastUpdate}, {@code raisedAt}) are the timestamps of the records that caused
 * them. Not thread-safe: one instance per stream task, as Kafka Streams runs it.
 */
final class ReportAggregator implements Processor<String, ReportInput, String, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(ReportAggregator.class);
  private static final StringSerializer KEYS = new StringSerializer();
  private static final Set<String> NOT_RUNS = Set.of("RECHECK", "REPAIR");

  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<String, TableRun> tableRuns;
  private KeyValueStore<String, String> capturedChunks;
  private KeyValueStore<String, ChunkAssembly> chunkAssemblies;
  private KeyValueStore<String, TargetRun> targetRuns;

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.tableRuns = context.getStateStore(ReportStores.TABLE_RUNS);
    this.capturedChunks = context.getStateStore(ReportStores.CAPTURED_CHUNKS);
    this.chunkAssemblies = context.getStateStore(ReportStores.CHUNK_ASSEMBLIES);
    this.targetRuns = context.getStateStore(ReportStores.TARGET_RUNS);
  }

  @Override
  public void process(Record<String, ReportInput> record) {
    if (NOT_RUNS.contains(record.value().taskKind())) {
      return; // a recheck's or repair's verdicts are shown beside its run's (class comment)
    }
    if (record.value() instanceof ReportInput.Result result) {
      onResult(result, record.timestamp());
    } else if (record.value() instanceof ReportInput.Capture capture) {
      onCapture(capture, record.timestamp());
    }
  }

  private void onCapture(ReportInput.Capture capture, long timestamp) {
    String tableKey = ReportKey.path(capture.task(), capture.table());
    TableRun stored = tableRuns.get(tableKey);
    if (stored != null && stored.isNewerThan(capture.runId())) {
      LOG.debug(
          "stale noted chunk task={} table={} run={} current_run={} chunk={}",
          capture.task(),
          capture.table(),
          capture.runId(),
          stored.runId(),
          capture.chunk());
      return;
    }
    TableRun run = currentRun(stored, capture);
    String chunkKey =
        ReportKey.path(capture.task(), capture.table(), Long.toString(capture.chunk()));
    boolean counted = capture.runId().equals(capturedChunks.get(chunkKey));
    if (!counted) {
      capturedChunks.put(chunkKey, capture.runId());
      run = run.withCapturedChunk(capture.noted());
    }
    if (run != stored) {
      tableRuns.put(tableKey, run);
      emitAllTargets(capture.task(), capture.table(), timestamp);
    }
  }

  private void onResult(ReportInput.Result result, long timestamp) {
    String tableKey = ReportKey.path(result.task(), result.table());
    TableRun stored = tableRuns.get(tableKey);
    if (stored != null && stored.isNewerThan(result.runId())) {
      LOG.debug(
          "stale chunk result task={} table={} run={} current_run={} chunk={} target={}",
          result.task(),
          result.table(),
          result.runId(),
          stored.runId(),
          result.chunk(),
          result.target());
      return;
    }
    TableRun run = currentRun(stored, result);
    String chunkKey =
        ReportKey.path(
            result.task(), result.table(), result.target(), Long.toString(result.chunk()));
    ChunkAssembly chunk = chunkAssemblies.get(chunkKey);
    if (chunk == null || !chunk.runId().equals(result.runId())) {
      chunk = ChunkAssembly.start(result.runId(), result.partition().partitionCount());
    }
    if (chunk.holds(result.partition().tablePartition())) {
      LOG.debug(
          "duplicate chunk result task={} table={} run={} chunk={} target={} partition={}",
          result.task(),
          result.table(),
          result.runId(),
          result.chunk(),
          result.target(),
          result.partition().tablePartition());
      return;
    }
    if (run != stored) {
      tableRuns.put(tableKey, run);
    }
    boolean raisesAlert = chunk.raisedBy(result.partition());
    chunk = addTo(chunk, result);
    chunkAssemblies.put(chunkKey, chunk);
    Instant at = Instant.ofEpochMilli(timestamp);
    if (raisesAlert) {
      forward(alertKey(result), ReportOutputs.notVerified(result, at), timestamp);
    }

    String targetKey = ReportKey.path(result.task(), result.target(), result.table());
    TargetRun storedTarget = targetRuns.get(targetKey);
    TargetRun target = TargetRun.inRun(storedTarget, run.runId());
    if (chunk.complete()) {
      boolean raisesDifferences = target.raisesDifferences(chunk);
      target = target.withChunk(chunk);
      if (raisesDifferences) {
        forward(
            alertKey(result),
            ReportOutputs.differences(result, chunk, target.totals(), at),
            timestamp);
      }
    }
    if (target != storedTarget) {
      targetRuns.put(targetKey, target);
    }
    if (run != stored) {
      emitAllTargets(result.task(), result.table(), timestamp);
    } else if (target != storedTarget) {
      emit(result.task(), result.target(), result.table(), timestamp);
    }
  }

  /**
   * The stored run; a new one when none is stored; the run after it, carrying its coverage cycle,
   * when the record is of a newer run.
   */
  private static TableRun currentRun(TableRun stored, ReportInput input) {
    if (stored == null) {
      return TableRun.start(input.runId(), input.taskKind());
    }
    return stored.is(input.runId()) ? stored : stored.next(input.runId(), input.taskKind());
  }

  private static ChunkAssembly addTo(ChunkAssembly chunk, ReportInput.Result result) {
    try {
      return chunk.add(result.partition());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "chunk result task="
              + result.task()
              + " run="
              + result.runId()
              + " table="
              + result.table()
              + " chunk="
              + result.chunk()
              + " target="
              + result.target()
              + " cannot be counted: "
              + e.getMessage(),
          e);
    }
  }

  private static String alertKey(ReportInput.Result result) {
    return ReportKey.ofTable(result.task(), result.target(), result.table());
  }

  /** The entries of {@code table} and of the task on every target known for the task. */
  private void emitAllTargets(String task, String table, long timestamp) {
    for (String target : knownTargets(task)) {
      emit(task, target, table, timestamp);
    }
  }

  /** The entry of {@code table} on {@code target}, then the task's entry on that target. */
  private void emit(String task, String target, String table, long timestamp) {
    Instant at = Instant.ofEpochMilli(timestamp);
    TableRun run = tableRuns.get(ReportKey.path(task, table));
    forward(
        ReportKey.ofTable(task, target, table),
        ReportOutputs.entry(task, target, table, run, totals(task, target, table, run), at),
        timestamp);

    ReportTotals sum = ReportTotals.EMPTY;
    TableRun newest = run;
    try (KeyValueIterator<String, TableRun> tables =
        tableRuns.prefixScan(ReportKey.prefix(task), KEYS)) {
      while (tables.hasNext()) {
        KeyValue<String, TableRun> next = tables.next();
        List<String> names = ReportKey.names(next.key);
        sum = sum.plus(totals(task, target, names.get(1), next.value));
        if (next.value.isNewerThan(newest.runId())) {
          newest = next.value;
        }
      }
    }
    forward(
        ReportKey.ofTask(task, target),
        ReportOutputs.entry(task, target, null, newest, sum, at),
        timestamp);
  }

  /**
   * The totals of {@code target} on {@code table} in the table's current run, with the run's
   * capture count and source rows.
   */
  private ReportTotals totals(String task, String target, String table, TableRun run) {
    TargetRun stored = targetRuns.get(ReportKey.path(task, target, table));
    return TargetRun.inRun(stored, run.runId()).totals().withRun(run);
  }

  private Set<String> knownTargets(String task) {
    Set<String> targets = new TreeSet<>();
    try (KeyValueIterator<String, TargetRun> runs =
        targetRuns.prefixScan(ReportKey.prefix(task), KEYS)) {
      while (runs.hasNext()) {
        targets.add(ReportKey.names(runs.next().key).get(1));
      }
    }
    return targets;
  }

  private void forward(String key, SpecificRecord value, long timestamp) {
    context.forward(new Record<>(key, value, timestamp));
  }
}
