package io.cdccompare.report.read;

import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import java.time.Instant;
import java.util.List;

/** Report entries and chunk results as the report topology and the verifiers write them. */
public final class ReportFixtures {
  public static final String TASK = "nightly";
  public static final String RUN = "20260304T050607Z-a1b2c3";
  public static final String ORDERS = "public.orders";
  public static final String LINES = "public.order_lines";
  public static final String PG = "pg-replica";
  public static final String MARIA = "maria-replica";
  public static final Instant AT = Instant.parse("2026-03-04T06:00:00Z");

  private ReportFixtures() {}

  public static RowCounts counts(
      long matched, long failed, long missed, long extra, long inFlight) {
    return new RowCounts(matched, failed, missed, extra, inFlight);
  }

  /** An entry of a table ({@code table} set) or of a target's totals ({@code table} null). */
  public static ReportEntry.Builder entry(String task, String target, String table) {
    return ReportEntry.newBuilder()
        .setTask(task)
        .setTarget(target)
        .setTable(table)
        .setRunId(RUN)
        .setTaskKind(TaskKind.FULL)
        .setCounts(counts(0, 0, 0, 0, 0))
        .setCaptureChunks(0)
        .setApplyChunks(0)
        .setUnverifiableChunks(0)
        .setSchemaDriftChunks(0)
        .setStatus(ReportStatus.IN_SYNC)
        .setLastUpdate(AT);
  }

  /** An entry of {@code TASK} and {@code RUN} with the given totals and status. */
  public static ReportEntry entry(
      String target,
      String table,
      ReportStatus status,
      long noted,
      long verified,
      RowCounts counts) {
    return entry(TASK, target, table)
        .setStatus(status)
        .setCaptureChunks(noted)
        .setApplyChunks(verified)
        .setCounts(counts)
        .build();
  }

  /**
   * An entry of {@code TASK} and {@code RUN} whose every noted chunk is verified while the target
   * compared none of the {@code sourceRows} rows the source read: every one was in flight.
   */
  public static ReportEntry nothingCompared(String target, String table, long sourceRows) {
    return entry(TASK, target, table)
        .setStatus(ReportStatus.NOTHING_COMPARED)
        .setCaptureChunks(1)
        .setApplyChunks(1)
        .setCounts(counts(0, 0, 0, 0, sourceRows))
        .setSourceRows(sourceRows)
        .setComparedSourceRows(sourceRows)
        .setCoveredRows(sourceRows)
        .setSlice(0)
        .setSlices(1)
        .build();
  }

  /** A VERIFIED result of one partition of one chunk of {@code TASK}, {@code RUN}. */
  public static ChunkResult.Builder result(String target, String table, long chunk, int partition) {
    return ChunkResult.newBuilder()
        .setTask(TASK)
        .setRunId(RUN)
        .setTaskKind(TaskKind.FULL)
        .setTable(table)
        .setTopic("shop." + table)
        .setChunk(chunk)
        .setTarget(target)
        .setTablePartition(partition)
        .setPartitionCount(2)
        .setMarkerOffset(100 + chunk)
        .setState(ChunkState.VERIFIED)
        .setCounts(counts(0, 0, 0, 0, 0))
        .setFailedKeys(List.of())
        .setMissedKeys(List.of())
        .setExtraKeys(List.of())
        .setInFlightKeys(List.of())
        .setError(null)
        .setVerifiedAt(AT);
  }

  /**
   * A VERIFIED result of one partition of one chunk of recheck attempt {@code attempt} of {@code
   * TASK}'s run {@code RUN}: run id {@code RUN.recheck<attempt>}, task kind RECHECK.
   */
  public static ChunkResult.Builder recheckResult(
      String target, String table, int attempt, long chunk, int partition) {
    return result(target, table, chunk, partition)
        .setRunId(RecheckRuns.runId(RUN, attempt))
        .setTaskKind(TaskKind.RECHECK);
  }
}
