package io.cdccompare.report.read;

/**
 * The status a report row shows: the report topic's {@code ReportStatus}, plus {@link #NO_RESULTS}
 * for a target that the targets file (or the task file, for {@code compare run --wait}) names but
 * that has no entry for the task.
 */
public enum ShownStatus {
  IN_SYNC,
  DIFFERENCES,
  IN_PROGRESS,
  UNVERIFIABLE,
  RESYNC_NEEDED,
  NOTHING_COMPARED,
  NO_RESULTS;

  static ShownStatus of(io.cdccompare.schemas.avro.ReportStatus status) {
    return valueOf(status.name());
  }
}
