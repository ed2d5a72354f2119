package io.cdccompare.core.report;

import java.util.Optional;

/**
 * The run of one (task, table) the report shows: how many chunks of that run the compare producer
 * noted (the {@code capture} column), the source rows they read and compared, and the run's place
 * in its coverage cycle. Totals are per run: only the newest run seen is kept, a run id being newer
 * when it sorts higher (run ids are {@code yyyyMMdd'T'HHmmss'Z'-xxxxxx}), and records of an older
 * run are stale. Immutable.
 *
 * <p><b>Coverage cycle.</b> Below {@code deep = 100} a run compares one slice of every chunk; with
 * {@code deep.rotate} the task's runs take the slices in turn ({@link RunSlice}). A run of slice 0
 * starts a cycle, a run of a later slice continues the cycle of the run before it, and the rows the
 * cycle compared so far are {@link #coveredRows()}. The slice is unknown until the run's first
 * noted chunk arrives (a run may first be seen from a chunk result), so a newer run takes the rows
 * of the cycle so far as {@code earlierRows} and counts them only once its slice is known to be
 * above 0.
 *
 * @param taskKind the name of the run's kind ({@code FULL}, {@code INCREMENTAL}, …) as the records
 *     spell it
 * @param sourceRows rows the noted chunks read on the source, each chunk counted once
 * @param comparedRows rows of the noted chunks this run compared
 * @param earlierRows rows compared by the earlier runs of the cycle this run would continue;
 *     counted only when the run's slice is above 0
 * @param slice the run's slice, empty until its first noted chunk arrives
 */
public record TableRun(
    String runId,
    String taskKind,
    long captureChunks,
    long sourceRows,
    long comparedRows,
    long earlierRows,
    Optional<RunSlice> slice) {

  public TableRun {
    if (runId == null || runId.isEmpty()) {
      throw new IllegalArgumentException("runId must not be empty");
    }
    if (taskKind == null || taskKind.isEmpty()) {
      throw new IllegalArgumentException("taskKind must not be empty");
    }
    if (captureChunks < 0 || sourceRows < 0 || comparedRows < 0 || earlierRows < 0) {
      throw new IllegalArgumentException(
          "counts of a table run must not be negative, were captureChunks="
              + captureChunks
              + " sourceRows="
              + sourceRows
              + " comparedRows="
              + comparedRows
              + " earlierRows="
              + earlierRows);
    }
    if (slice == null) {
      throw new IllegalArgumentException("slice must not be null (empty when unknown)");
    }
  }

  /** The first sight of a run without any run before it: no chunk noted, a cycle of its own. */
  public static TableRun start(String runId, String taskKind) {
    return new TableRun(runId, taskKind, 0, 0, 0, 0, Optional.empty());
  }

  /**
   * The first sight of {@code runId}, the run after this one: nothing noted yet, and the rows this
   * run's cycle compared so far carried as {@code earlierRows}, in case the new run continues the
   * cycle. A run whose slice never became known carries on the rows it was given.
   */
  public TableRun next(String runId, String taskKind) {
    long carried = slice.isPresent() ? coveredRows() : earlierRows;
    return new TableRun(runId, taskKind, 0, 0, 0, carried, Optional.empty());
  }

  /** True when a record of {@code otherRunId} belongs to an older run than this one. */
  public boolean isNewerThan(String otherRunId) {
    return runId.compareTo(otherRunId) > 0;
  }

  /** True when {@code otherRunId} is this run. */
  public boolean is(String otherRunId) {
    return runId.equals(otherRunId);
  }

  /**
   * This run with one more chunk noted by the producer: capture + 1 and its rows added. The first
   * noted chunk tells the run's slice; every chunk of a run carries the same one.
   */
  public TableRun withCapturedChunk(NotedChunk chunk) {
    return new TableRun(
        runId,
        taskKind,
        captureChunks + 1,
        Math.addExact(sourceRows, chunk.rows()),
        Math.addExact(comparedRows, chunk.comparedRows()),
        earlierRows,
        slice.isPresent() ? slice : Optional.of(chunk.slice()));
  }

  /**
   * Rows compared by the runs of the current cycle, this one included: {@code comparedRows} for a
   * run that starts a cycle (slice 0) or whose slice is not known yet, {@code earlierRows +
   * comparedRows} for a run that continues one.
   */
  public long coveredRows() {
    boolean continuesCycle = slice.isPresent() && !slice.get().startsCycle();
    return continuesCycle ? Math.addExact(earlierRows, comparedRows) : comparedRows;
  }

  /** The run's source rows: read, compared by this run, covered by its cycle. */
  public SourceRows source() {
    return new SourceRows(sourceRows, comparedRows, coveredRows());
  }
}
