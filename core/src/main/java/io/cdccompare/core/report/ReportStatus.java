package io.cdccompare.core.report;

/**
 * The summary of a report entry, derived from its totals alone ({@link #of}). The report topic's
 * {@code RESYNC_NEEDED} is not a function of totals and has no value here.
 */
public enum ReportStatus {
  /** Every noted chunk compared; nothing failed, missed or extra. */
  IN_SYNC,
  /** Some row failed, is missed or is extra. */
  DIFFERENCES,
  /** Chunks noted by the producer that this target has not compared yet. */
  IN_PROGRESS,
  /** Some chunk could not be checked (unverifiable, stalled or schema drift). */
  UNVERIFIABLE,
  /**
   * Every noted chunk verified without a difference, but the target compared none of the rows the
   * source read (all in flight, or none sampled): the run proved nothing about the table.
   */
  NOTHING_COMPARED;

  /**
   * The status of {@code totals}, the first that holds of: UNVERIFIABLE if any chunk was
   * unverifiable or in schema drift; DIFFERENCES if any row failed, is missed or extra; IN_PROGRESS
   * if fewer chunks were compared than noted; NOTHING_COMPARED if a table compared nothing ({@link
   * ReportTotals#withRun}); else IN_SYNC. A problem found outranks progress: a target that is
   * behind but already differs shows DIFFERENCES. A task whose table compared nothing is never
   * IN_SYNC.
   */
  public static ReportStatus of(ReportTotals totals) {
    if (totals.unverifiableChunks() > 0 || totals.schemaDriftChunks() > 0) {
      return UNVERIFIABLE;
    }
    if (totals.rows().hasDifferences()) {
      return DIFFERENCES;
    }
    if (totals.applyChunks() < totals.captureChunks()) {
      return IN_PROGRESS;
    }
    if (totals.nothingComparedTables() > 0) {
      return NOTHING_COMPARED;
    }
    return IN_SYNC;
  }
}
