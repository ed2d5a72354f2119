package io.cdccompare.core.report;

/**
 * The running totals of a report entry: chunks noted by the compare producer ({@code capture}),
 * chunks with a complete verdict on the target ({@code apply}), how many of those could not be
 * checked, the row outcomes of the compared chunks, the rows of the source the run read and
 * compared, and how many tables compared nothing. Immutable.
 *
 * @param captureChunks chunks noted by the producer for the run (the table's, not the target's)
 * @param applyChunks chunks whose verdict is complete on the target (every partition reported)
 * @param unverifiableChunks chunks of {@code applyChunks} with an UNVERIFIABLE or STALLED partition
 * @param schemaDriftChunks chunks of {@code applyChunks} with a SCHEMA_DRIFT partition
 * @param source rows the run read and compared on the source (the table's, not the target's)
 * @param nothingComparedTables tables whose every noted chunk is verified without a problem while
 *     the target compared none of the rows the source read ({@link #withRun}): 0 or 1 for a table,
 *     summed for a task
 */
public record ReportTotals(
    long captureChunks,
    long applyChunks,
    long unverifiableChunks,
    long schemaDriftChunks,
    RowTotals rows,
    SourceRows source,
    long nothingComparedTables) {

  /** Nothing noted, nothing compared. */
  public static final ReportTotals EMPTY =
      new ReportTotals(0, 0, 0, 0, RowTotals.ZERO, SourceRows.ZERO, 0);

  public ReportTotals {
    if (captureChunks < 0 || applyChunks < 0 || unverifiableChunks < 0 || schemaDriftChunks < 0) {
      throw new IllegalArgumentException(
          "chunk counts must not be negative, were capture="
              + captureChunks
              + " apply="
              + applyChunks
              + " unverifiable="
              + unverifiableChunks
              + " schemaDrift="
              + schemaDriftChunks);
    }
    if (unverifiableChunks > applyChunks || schemaDriftChunks > applyChunks) {
      throw new IllegalArgumentException(
          "unverifiable ("
              + unverifiableChunks
              + ") and schema drift ("
              + schemaDriftChunks
              + ") chunks are chunks of apply ("
              + applyChunks
              + ")");
    }
    if (rows == null || source == null) {
      throw new IllegalArgumentException("rows and source must not be null");
    }
    if (nothingComparedTables < 0) {
      throw new IllegalArgumentException(
          "nothingComparedTables must not be negative, was " + nothingComparedTables);
    }
  }

  /**
   * These totals of a target on a table with what belongs to the table's run: its capture count and
   * source rows, and whether the table compared nothing — every noted chunk verified ({@code apply
   * >= capture > 0}), none unverifiable or in schema drift, no difference, rows read on the source
   * and none of them matched, failed or missed on the target (every row in flight, or a {@code
   * deep} so low that no row was sampled).
   */
  public ReportTotals withRun(TableRun run) {
    SourceRows runSource = run.source();
    boolean comparedNothing =
        run.captureChunks() > 0
            && applyChunks >= run.captureChunks()
            && unverifiableChunks == 0
            && schemaDriftChunks == 0
            && !rows.hasDifferences()
            && runSource.read() > 0
            && rows.compared() == 0;
    return new ReportTotals(
        run.captureChunks(),
        applyChunks,
        unverifiableChunks,
        schemaDriftChunks,
        rows,
        runSource,
        comparedNothing ? 1 : 0);
  }

  /**
   * These totals after one more chunk's complete verdict: apply + 1, its rows added, and the
   * unverifiable and schema drift counts + 1 if any partition of the chunk was so.
   *
   * @throws IllegalArgumentException if the chunk still waits for partitions
   */
  public ReportTotals withChunk(ChunkAssembly chunk) {
    if (!chunk.complete()) {
      throw new IllegalArgumentException(
          "chunk of run "
              + chunk.runId()
              + " has "
              + chunk.partitions().size()
              + " of "
              + chunk.partitionCount()
              + " partitions: it does not count yet");
    }
    return new ReportTotals(
        captureChunks,
        applyChunks + 1,
        unverifiableChunks + (chunk.unverifiable() ? 1 : 0),
        schemaDriftChunks + (chunk.schemaDrift() ? 1 : 0),
        rows.plus(chunk.rows()),
        source,
        nothingComparedTables);
  }

  /** These totals and {@code other}'s, every count summed (a task's totals over its tables). */
  public ReportTotals plus(ReportTotals other) {
    return new ReportTotals(
        Math.addExact(captureChunks, other.captureChunks),
        Math.addExact(applyChunks, other.applyChunks),
        Math.addExact(unverifiableChunks, other.unverifiableChunks),
        Math.addExact(schemaDriftChunks, other.schemaDriftChunks),
        rows.plus(other.rows),
        source.plus(other.source),
        Math.addExact(nothingComparedTables, other.nothingComparedTables));
  }

  public ReportStatus status() {
    return ReportStatus.of(this);
  }
}
