package io.cdccompare.core.report;

/**
 * The totals of one target on one table for one run, and whether the DIFFERENCES alert of that
 * (table, run, target) was raised: exactly one is, when the first chunk with failed, missed or
 * extra rows completes — never one per chunk or per row. Immutable.
 *
 * @param totals the target's totals; {@code captureChunks}, {@code source} and {@code
 *     nothingComparedTables} are left 0 here, they belong to the table's run ({@link TableRun}) and
 *     are set when an entry is built ({@link ReportTotals#withRun})
 */
public record TargetRun(String runId, ReportTotals totals, boolean differencesRaised) {

  public TargetRun {
    if (runId == null || runId.isEmpty()) {
      throw new IllegalArgumentException("runId must not be empty");
    }
    if (totals == null) {
      throw new IllegalArgumentException("totals must not be null");
    }
  }

  /** Nothing compared yet in {@code runId}. */
  public static TargetRun start(String runId) {
    return new TargetRun(runId, ReportTotals.EMPTY, false);
  }

  /**
   * The target's totals in {@code runId}: {@code stored} if it is of that run, otherwise (none
   * stored, or of an older run) a fresh start: totals restart with each run.
   */
  public static TargetRun inRun(TargetRun stored, String runId) {
    return stored != null && stored.runId.equals(runId) ? stored : start(runId);
  }

  /** True when completing {@code chunk} must raise this run's one DIFFERENCES alert. */
  public boolean raisesDifferences(ChunkAssembly chunk) {
    return !differencesRaised && chunk.complete() && chunk.rows().hasDifferences();
  }

  /**
   * These totals with one more complete chunk.
   *
   * @throws IllegalArgumentException if the chunk is of another run or not complete
   */
  public TargetRun withChunk(ChunkAssembly chunk) {
    if (!chunk.runId().equals(runId)) {
      throw new IllegalArgumentException(
          "a chunk of run " + chunk.runId() + " does not count in run " + runId);
    }
    return new TargetRun(
        runId, totals.withChunk(chunk), differencesRaised || chunk.rows().hasDifferences());
  }
}
