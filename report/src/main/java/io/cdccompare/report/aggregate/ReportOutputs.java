package io.cdccompare.report.aggregate;

import io.cdccompare.core.report.ChunkAssembly;
import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.RunSlice;
import io.cdccompare.core.report.TableRun;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import java.time.Instant;

/** Maps core's totals and the aggregation's decisions to the Avro records of the output topics. */
final class ReportOutputs {
  private ReportOutputs() {}

  /**
   * A report entry: of one table when {@code table} is set, of the whole task when it is null.
   *
   * @param run the run the totals describe (for a task: the newest of its tables); gives the run
   *     id, kind and slice ({@code slices} 0 while the slice is unknown)
   */
  static ReportEntry entry(
      String task, String target, String table, TableRun run, ReportTotals totals, Instant at) {
    return ReportEntry.newBuilder()
        .setTask(task)
        .setTarget(target)
        .setTable(table)
        .setRunId(run.runId())
        .setTaskKind(TaskKind.valueOf(run.taskKind()))
        .setCounts(counts(totals.rows()))
        .setCaptureChunks(totals.captureChunks())
        .setApplyChunks(totals.applyChunks())
        .setUnverifiableChunks(totals.unverifiableChunks())
        .setSchemaDriftChunks(totals.schemaDriftChunks())
        .setStatus(ReportStatus.valueOf(totals.status().name()))
        .setLastUpdate(at)
        .setSourceRows(totals.source().read())
        .setComparedSourceRows(totals.source().compared())
        .setCoveredRows(totals.source().covered())
        .setSlice(run.slice().map(RunSlice::slice).orElse(0))
        .setSlices(run.slice().map(RunSlice::slices).orElse(0))
        .build();
  }

  /**
   * The one DIFFERENCES alert of a table, run and target, raised when {@code chunk} completed.
   *
   * @param totals the target's totals of the run, {@code chunk} included
   */
  static Alert differences(
      ReportInput.Result result, ChunkAssembly chunk, ReportTotals totals, Instant at) {
    RowTotals rows = totals.rows();
    String message =
        "table "
            + result.table()
            + " differs on target "
            + result.target()
            + " in run "
            + result.runId()
            + " of task "
            + result.task()
            + ": "
            + rows.failed()
            + " failed, "
            + rows.missed()
            + " missed, "
            + rows.extra()
            + " extra rows in the "
            + totals.applyChunks()
            + " chunks compared so far, first in chunk "
            + result.chunk()
            + "; the keys are in the chunk results";
    return alert(AlertCode.DIFFERENCES, result, message, at)
        .setCounts(counts(rows))
        .setSampleKeys(chunk.sampleKeys())
        .build();
  }

  /**
   * The UNVERIFIABLE or SCHEMA_DRIFT alert of a chunk, with the result's error and the CLOSE
   * marker's position in the table topic.
   */
  static Alert notVerified(ReportInput.Result result, Instant at) {
    ChunkState state = result.partition().state();
    String message =
        result.error() != null && !result.error().isBlank()
            ? result.error()
            : "chunk "
                + result.chunk()
                + " of table "
                + result.table()
                + " is "
                + state
                + " on target "
                + result.target()
                + " (the verifier gave no reason)";
    return alert(AlertCode.valueOf(state.name()), result, message, at)
        .setTopic(result.topic())
        .setPartition(result.partition().tablePartition())
        .setOffset(result.markerOffset())
        .build();
  }

  private static Alert.Builder alert(
      AlertCode code, ReportInput.Result result, String message, Instant at) {
    return Alert.newBuilder()
        .setCode(code)
        .setOrigin(result.target())
        .setTask(result.task())
        .setRunId(result.runId())
        .setTable(result.table())
        .setTarget(result.target())
        .setChunk(result.chunk())
        .setMessage(message)
        .setRaisedAt(at);
  }

  private static RowCounts counts(RowTotals rows) {
    return new RowCounts(
        rows.matched(), rows.failed(), rows.missed(), rows.extra(), rows.inFlight());
  }
}
