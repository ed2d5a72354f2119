package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.core.compare.ChunkPacing;
import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.table.TableName;
import io.cdccompare.producer.compare.ChunkReader.ChunkScan;
import io.cdccompare.producer.compare.CompareRun.ChunkListener;
import io.cdccompare.producer.compare.CompareRun.TableDone;
import io.cdccompare.producer.compare.HashRecordWriter.ChunkId;
import io.cdccompare.producer.compare.TaskPositions.Position;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.NoteSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task run's tables, one after the other ({@link CompareRun} prepares the run): for each, where
 * it starts (continued after its last closed chunk, or restarted), then chunk after chunk: wait for
 * flow control, commit the OPEN note, read and hash the chunk, hand it to the {@link ChunkCloser}
 * (hash records, CLOSE note with the position) while the next one is read, rest for the throttle;
 * at the end the table is marked done and one log line says where its time went. It is a little
 * over 300 lines because the chunk loop keeps its counters and phase timings beside it, where the
 * loop's steps are read.
 */
final class TableCompare {
  private static final Logger LOG = LoggerFactory.getLogger(CompareRun.class);

  /** How long a chunk's close may finish after the run failed (its records are written). */
  private static final Duration CLOSE_AFTER_FAILURE = Duration.ofSeconds(30);

  /**
   * What the run hands its tables.
   *
   * @param storedPositions the task's positions as the run found them, by table
   * @param flow flow control, or null without it
   * @param catalog a source session for catalog reads; {@code scan} the one chunks are read on
   * @param offsets the table topics' offsets, recorded when a table's run starts
   */
  record Parts(
      String taskRunId,
      Map<TableName, Position> storedPositions,
      TaskPositions positions,
      ChunkNotes notes,
      Executor hashing,
      ChunkCloser closer,
      VerdictFlow flow,
      Progress progress,
      Connection catalog,
      Connection scan,
      TableTopicOffsets offsets) {}

  private final CompareConfig config;
  private final BooleanSupplier stopping;
  private final ChunkListener listener;
  private final Parts run;

  /**
   * @param stopping whether the run was asked to stop (checked between chunks and while waiting)
   */
  TableCompare(CompareConfig config, BooleanSupplier stopping, ChunkListener listener, Parts run) {
    this.config = config;
    this.stopping = stopping;
    this.listener = listener;
    this.run = run;
  }

  /** Where a table's run begins: its stored position, and whether it was restarted. */
  private record TableStart(Position position, boolean restarted) {}

  /** Compares one table of the run to its end, or until the run is asked to stop. */
  TableDone compare(ScanPlan plan) throws Exception {
    TableName table = plan.task().table();
    Position stored = run.storedPositions().get(table);
    if (stored != null && stored.taskRunId().equals(run.taskRunId()) && stored.done()) {
      LOG.info("task={} table={} was done in this run", config.taskName(), table);
      return new TableDone(
          table,
          stored.runId(),
          stored.chunksDone(),
          stored.rowsRead(),
          stored.rowsCompared(),
          false);
    }
    TableStart start = tableStart(plan, stored);
    recordStartOffsets(plan, start.position());
    return scanChunks(plan, start.position(), start.restarted());
  }

  /**
   * Records where the table topic stands before the table run's first chunk is opened: once the run
   * completes, an incremental run compares the keys changed from there on. Every change below these
   * offsets was committed before the run read any chunk, so the run compared it; a change above
   * them may have come after its chunk was read, and is the next incremental run's. A run resumed
   * after closed chunks without recorded offsets (started by an earlier version) records none,
   * since changes may have come after its first chunks were read: it then leaves the table's
   * completed offsets as they were.
   */
  private void recordStartOffsets(ScanPlan plan, Position position) throws Exception {
    if (position.startOffsets() == null && position.nextChunk() == 0) {
      run.positions().recordStart(plan.task().table(), run.offsets().end(plan.topic()));
    }
  }

  /**
   * The table's position for this run: a new table run when the task run is new for it, or when its
   * key or compared columns changed since the stopped run (another fingerprint); else the stored
   * position, to continue after its last closed chunk.
   */
  private TableStart tableStart(ScanPlan plan, Position stored) throws SQLException {
    TableName table = plan.task().table();
    String fingerprint = plan.shape().fingerprint();
    if (stored == null || !stored.taskRunId().equals(run.taskRunId())) {
      run.positions().restartTable(run.taskRunId(), run.taskRunId(), TaskKind.FULL, table);
      return new TableStart(run.positions().load().get(table), false);
    }
    if (stored.fingerprint() != null && !stored.fingerprint().equals(fingerprint)) {
      String runId = CompareRun.newRunId();
      LOG.warn(
          "task={} table={} restarts from its first key under run={}: its key or compared columns"
              + " changed since the stopped run (fingerprint {} -> {})",
          config.taskName(),
          table,
          runId,
          stored.fingerprint(),
          fingerprint);
      run.positions().restartTable(run.taskRunId(), runId, TaskKind.FULL, table);
      return new TableStart(run.positions().load().get(table), true);
    }
    return new TableStart(stored, false);
  }

  /** Reads, notes and hands over the table's chunks from its position to its end, or a stop. */
  private TableDone scanChunks(ScanPlan plan, Position position, boolean restarted)
      throws Exception {
    TableName table = plan.task().table();
    String runId = position.runId();
    long chunk = position.nextChunk();
    String after = position.savedPosition();
    ChunkSampling sampling = plan.task().sampling();
    int slice = sampling.sliceOfRun(position.runNumber());
    Counts counts = new Counts(position.rowsRead(), position.rowsCompared(), position.chunksDone());
    ExactSnapshot snapshot =
        new ExactSnapshot(run.scan(), config.readVisibilityTimeout(), stopping);
    ChunkReader reader =
        new ChunkReader(run.scan(), plan, config.fetchSize(), run.hashing(), snapshot);
    ChunkPacing pacing = config.pacing();
    run.progress().tableStarted(table, estimatedRows(run.catalog(), plan), counts.rows);
    long pacingStart = System.nanoTime();
    long pacedRows = 0;
    String shape = plan.shape().toJson();
    boolean more = firstChunkDue(position, sampling, reader);
    PhaseTimes times = new PhaseTimes();
    long firstChunk = chunk;
    try {
      while (!stopping.getAsBoolean() && more) {
        if (run.flow() != null && chunk - run.flow().ahead() >= firstChunk) {
          long waiting = System.nanoTime();
          run.flow().awaitVerified(runId, table.toString(), chunk - run.flow().ahead(), stopping);
          times.flowWait += System.nanoTime() - waiting;
          if (stopping.getAsBoolean()) {
            break;
          }
        }
        long chunkStart = System.nanoTime();
        run.notes()
            .openChunk(
                new NoteSql.Open(
                    config.taskName(),
                    table,
                    runId,
                    TaskKind.FULL.name(),
                    chunk,
                    sampling.deep(),
                    slice,
                    sampling.slices(),
                    plan.shape().fingerprint(),
                    shape,
                    after));
        listener.opened(table, chunk);
        long opened = System.nanoTime();
        ChunkScan read;
        try {
          read = reader.read(after, chunk, slice);
        } catch (SQLException e) {
          Optional<CdcCompareException> drift =
              SourceSchemaChange.afterFailedRead(run.catalog(), plan, runId, chunk, e);
          if (drift.isPresent()) {
            throw drift.get();
          }
          throw e;
        }
        if (read == null) {
          break; // stopped before the read: the chunk stays OPEN and is read again on resume
        }
        long readDone = System.nanoTime();
        if (run.closer().closing()) {
          times.close += counts.add(run.closer().awaitClosed(), run.progress());
        }
        String saved = read.rows() == 0 ? after : read.lastKey();
        run.closer()
            .close(
                new ChunkId(
                    config.taskName(),
                    runId,
                    TaskKind.FULL,
                    table.toString(),
                    chunk,
                    slice,
                    sampling.slices()),
                table,
                plan,
                read.read(),
                saved);
        long handed = System.nanoTime();
        times.open += opened - chunkStart;
        times.scan += readDone - opened;
        times.closeWait += handed - readDone;
        chunk++;
        after = saved;
        more = read.moreRows();
        if (!more) {
          break;
        }
        pacedRows += read.rows();
        long resting = System.nanoTime();
        rest(
            pacing.pauseAfterChunk(
                pacedRows,
                Duration.ofNanos(resting - pacingStart),
                Duration.ofNanos(resting - chunkStart)));
        times.throttle += System.nanoTime() - resting;
      }
      if (run.closer().closing()) {
        long waiting = System.nanoTime();
        times.close += counts.add(run.closer().awaitClosed(), run.progress());
        times.closeWait += System.nanoTime() - waiting;
      }
    } catch (Exception | Error e) {
      run.closer().finishAfter(e, CLOSE_AFTER_FAILURE);
      throw e;
    }
    if (!stopping.getAsBoolean()) {
      run.positions().finish(table);
      run.progress().tableDone(counts.rows, counts.chunks);
    }
    LOG.info(
        "task={} table={} run={} {} chunks={} rows={} compared={} open_ms={} scan_ms={}"
            + " close_ms={} close_wait_ms={} throttle_ms={} flow_wait_ms={} visibility_waits={}"
            + " visibility_wait_ms={}",
        config.taskName(),
        table,
        runId,
        stopping.getAsBoolean() ? "stopped" : "done",
        counts.chunks,
        counts.rows,
        counts.compared,
        times.open / 1_000_000,
        times.scan / 1_000_000,
        times.close / 1_000_000,
        times.closeWait / 1_000_000,
        times.throttle / 1_000_000,
        times.flowWait / 1_000_000,
        snapshot.waits(),
        snapshot.waitedNanos() / 1_000_000);
    return new TableDone(table, runId, counts.chunks, counts.rows, counts.compared, restarted);
  }

  /**
   * Where a table's run spent its time, in nanoseconds, for its last log line ({@code
   * compare-producer/README.md}, "Progress"): OPEN notes, the chunk queries, closing (hash records
   * and CLOSE notes, on the closer's thread), the scan waiting for the closer, the throttle's rests
   * and flow control's waits for the targets.
   */
  private static final class PhaseTimes {
    long open;
    long scan;
    long close;
    long closeWait;
    long throttle;
    long flowWait;
  }

  /**
   * Whether the table run has a chunk to read at all. At {@code deep = 100} the chunks must cover
   * the key space up to its end, so a run whose last chunk open above (its tail) is not closed
   * always reads one more chunk, empty if no row follows the position. Below 100 a chunk is read
   * when a row follows the position, or when the run starts: an empty table is one chunk that
   * compares the whole key space (its target rows are extra).
   */
  private static boolean firstChunkDue(
      Position position, ChunkSampling sampling, ChunkReader reader) throws SQLException {
    if (position.tailClosed()) {
      return false;
    }
    String after = position.savedPosition();
    return sampling.deep() == 100 || after == null || reader.anyRowAfter(after);
  }

  /** What a table's closed chunks add up to, an earlier part of the same run included. */
  private static final class Counts {
    long rows;
    long compared;
    long chunks;

    Counts(long rows, long compared, long chunks) {
      this.rows = rows;
      this.compared = compared;
      this.chunks = chunks;
    }

    /** Counts a closed chunk and shows it; returns how long its close took. */
    long add(ChunkCloser.Closed closed, Progress progress) {
      rows += closed.read().rows();
      compared += closed.read().comparedRows();
      chunks++;
      progress.chunkDone(rows, chunks);
      return closed.nanos();
    }
  }

  private void rest(Duration pause) throws InterruptedException {
    long until = System.nanoTime() + pause.toNanos();
    while (!stopping.getAsBoolean() && System.nanoTime() < until) {
      // the throttle's rest, cut short by stop()
      Thread.sleep(Math.max(1, Math.min(200, (until - System.nanoTime()) / 1_000_000)));
    }
  }

  /** The planner's row estimate, for the progress ETA (0 when never analysed). */
  private static long estimatedRows(Connection catalog, ScanPlan plan) throws SQLException {
    try (PreparedStatement s =
        catalog.prepareStatement(
            "SELECT greatest(c.reltuples, 0)::bigint FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
      s.setString(1, plan.table().schema());
      s.setString(2, plan.table().table());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }
}
