package io.cdccompare.operations.status;

import java.time.Instant;
import java.util.List;

/**
 * The compares as the report topic shows them: per task and target, the latest run's totals.
 *
 * @param reportTopic the compacted report topic read
 * @param reportExists false when the topic does not exist: no verifier has run yet
 * @param entries per (task, target), ordered by task then target
 * @param unreachable one-line reason the report could not be read, or {@code null}
 */
public record CompareStatus(
    String reportTopic, boolean reportExists, List<Entry> entries, String unreachable) {

  public CompareStatus {
    entries = List.copyOf(entries);
  }

  /**
   * One task on one target.
   *
   * @param runId the latest run, {@code null} before any chunk was noted
   * @param status IN_SYNC, DIFFERENCES, IN_PROGRESS, UNVERIFIABLE, RESYNC_NEEDED or
   *     NOTHING_COMPARED (every chunk verified, but a table's target compared none of its rows), as
   *     the report entry spells it
   * @param chunksNoted chunks the compare producer closed (the report's capture column)
   * @param chunksVerified chunks with a complete verdict on the target (the apply column)
   */
  public record Entry(
      String task,
      String target,
      String runId,
      String status,
      long chunksNoted,
      long chunksVerified,
      Instant lastUpdate) {}

  static CompareStatus noReport(String reportTopic) {
    return new CompareStatus(reportTopic, false, List.of(), null);
  }

  static CompareStatus unreachable(String reportTopic, String reason) {
    return new CompareStatus(reportTopic, false, List.of(), reason);
  }
}
