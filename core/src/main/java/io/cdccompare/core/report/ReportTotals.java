package io.cdccompare.core.report;

/**
 * The running totals of a report entry: chunks noted by the compare producer ({@code capture}),
 * chunks with a complete verdict on the target ({@code apply}), how many of those could not be
 * checked, and the row outcomes of the compared chunks. Immutable.
 *
 * @param captureChunks chunks noted by the producer for the run (the table's, not the target's)
 * @param applyChunks chunks whose verdict is complete on the target (every partition reported)
 * @param unverifiableChunks chunks of {@code applyChunks} with an UNVERIFIABLE partition
 * @param schemaDriftChunks chunks of {@code applyChunks} with a SCHEMA_DRIFT partition
 */
public record ReportTotals(
    long captureChunks,
    long applyChunks,
    long unverifiableChunks,
    long schemaDriftChunks,
    RowTotals rows) {

  /** Nothing noted, nothing compared. */
  public static final ReportTotals EMPTY = new ReportTotals(0, 0, 0, 0, RowTotals.ZERO);

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
    if (rows == null) {
      throw new IllegalArgumentException("rows must not be null");
    }
  }

  /** These totals with the capture count of the table's run. */
  public ReportTotals withCaptureChunks(long captureChunks) {
    return new ReportTotals(
        captureChunks, applyChunks, unverifiableChunks, schemaDriftChunks, rows);
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
        rows.plus(chunk.rows()));
  }

  /** These totals and {@code other}'s, every count summed (a task's totals over its tables). */
  public ReportTotals plus(ReportTotals other) {
    return new ReportTotals(
        Math.addExact(captureChunks, other.captureChunks),
        Math.addExact(applyChunks, other.applyChunks),
        Math.addExact(unverifiableChunks, other.unverifiableChunks),
        Math.addExact(schemaDriftChunks, other.schemaDriftChunks),
        rows.plus(other.rows));
  }

  public ReportStatus status() {
    return ReportStatus.of(this);
  }
}
