package io.cdccompare.core.report;

/**
 * The run of one (task, table) the report shows, and its {@code capture} column: how many chunks of
 * that run the compare producer noted. Totals are per run: only the newest run seen is kept, a run
 * id being newer when it sorts higher (run ids are {@code yyyyMMdd'T'HHmmss'Z'-xxxxxx}), and
 * records of an older run are stale. Immutable.
 *
 * @param taskKind the name of the run's kind ({@code FULL}, {@code INCREMENTAL}, …) as the records
 *     spell it
 */
public record TableRun(String runId, String taskKind, long captureChunks) {

  public TableRun {
    if (runId == null || runId.isEmpty()) {
      throw new IllegalArgumentException("runId must not be empty");
    }
    if (taskKind == null || taskKind.isEmpty()) {
      throw new IllegalArgumentException("taskKind must not be empty");
    }
    if (captureChunks < 0) {
      throw new IllegalArgumentException(
          "captureChunks must not be negative, was " + captureChunks);
    }
  }

  /** The first sight of a run: no chunk noted yet. */
  public static TableRun start(String runId, String taskKind) {
    return new TableRun(runId, taskKind, 0);
  }

  /** True when a record of {@code otherRunId} belongs to an older run than this one. */
  public boolean isNewerThan(String otherRunId) {
    return runId.compareTo(otherRunId) > 0;
  }

  /** True when {@code otherRunId} is this run. */
  public boolean is(String otherRunId) {
    return runId.equals(otherRunId);
  }

  /** This run with one more chunk noted by the producer. */
  public TableRun withCapturedChunk() {
    return new TableRun(runId, taskKind, captureChunks + 1);
  }
}
