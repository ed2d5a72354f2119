package io.cdccompare.verifier.stream;

import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.RowCounts;
import org.slf4j.Logger;

/** Maps a partition's verdict on a chunk to the {@code ChunkResult} of the results topic. */
final class ChunkResults {
  private ChunkResults() {}

  /** The record key: {@code task/runId/table/chunk/target/partition}. */
  static String key(PartitionVerdict verdict, String target) {
    return verdict.id().task()
        + "/"
        + verdict.id().runId()
        + "/"
        + verdict.id().table()
        + "/"
        + verdict.id().chunk()
        + "/"
        + target
        + "/"
        + verdict.id().tablePartition();
  }

  /** The log line of a partition's verdict on a chunk: its id, state and counts. */
  static void log(Logger log, String target, PartitionVerdict verdict) {
    VerdictId id = verdict.id();
    ChunkVerdict rows = verdict.verdict();
    log.info(
        "target={} task={} run={} table={} chunk={} partition={} state={} matched={} failed={}"
            + " missed={} extra={} in_flight={}",
        target,
        id.task(),
        id.runId(),
        id.table(),
        id.chunk(),
        id.tablePartition(),
        verdict.state(),
        rows.matched(),
        rows.failed(),
        rows.missed(),
        rows.extra(),
        rows.inFlight());
  }

  static ChunkResult of(Marker close, String topic, String target, PartitionVerdict verdict) {
    ChunkVerdict rows = verdict.verdict();
    return ChunkResult.newBuilder()
        .setTask(verdict.id().task())
        .setRunId(verdict.id().runId())
        .setTaskKind(close.getTaskKind())
        .setTable(verdict.id().table())
        .setTopic(topic)
        .setChunk(verdict.id().chunk())
        .setTarget(target)
        .setTablePartition(verdict.id().tablePartition())
        .setPartitionCount(close.getPartitionCount())
        .setMarkerOffset(verdict.markerOffset())
        .setState(ChunkState.valueOf(verdict.state().name()))
        .setCounts(
            RowCounts.newBuilder()
                .setMatched(rows.matched())
                .setFailed(rows.failed())
                .setMissed(rows.missed())
                .setExtra(rows.extra())
                .setInFlight(rows.inFlight())
                .build())
        .setFailedKeys(rows.failedKeys())
        .setMissedKeys(rows.missedKeys())
        .setExtraKeys(rows.extraKeys())
        .setInFlightKeys(rows.inFlightKeys())
        .setError(verdict.error())
        .setVerifiedAt(verdict.verifiedAt())
        .build();
  }
}
