package io.cdccompare.report.aggregate;

import io.cdccompare.core.report.ChunkAssembly;
import io.cdccompare.core.report.NotedChunk;
import io.cdccompare.core.report.PartitionResult;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.RunSlice;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.RowCounts;
import java.util.ArrayList;
import java.util.List;

/**
 * What the aggregation reads, reduced to what it needs so the repartition topic carries small
 * records: a partition's verdict from the results topic ({@link Result}), or a chunk noted by the
 * compare producer ({@link Capture}, from the hash record of table partition 0, part 0). Both are
 * keyed by task on the repartition topic, so every table and target of a task is aggregated in one
 * place.
 */
sealed interface ReportInput {
  String task();

  String runId();

  String taskKind();

  String table();

  long chunk();

  /**
   * One partition's verdict on one chunk for one target.
   *
   * @param topic the table topic the CLOSE marker was read from
   * @param markerOffset the CLOSE marker's offset in that partition
   * @param error why the partition is UNVERIFIABLE or in SCHEMA_DRIFT; null when VERIFIED
   */
  record Result(
      String task,
      String runId,
      String taskKind,
      String table,
      long chunk,
      String target,
      String topic,
      long markerOffset,
      String error,
      PartitionResult partition)
      implements ReportInput {}

  /**
   * One chunk noted by the compare producer.
   *
   * @param noted the rows the chunk read and compared on the source, and the run's slice
   */
  record Capture(
      String task, String runId, String taskKind, String table, long chunk, NotedChunk noted)
      implements ReportInput {}

  /**
   * The result's identity, state and counts, with at most {@link ChunkAssembly#SAMPLE_KEYS} of its
   * failed, missed and extra keys (in that order).
   *
   * @throws IllegalArgumentException naming the result's identity if its partition or counts are
   *     impossible
   */
  static Result of(ChunkResult result) {
    try {
      RowCounts counts = result.getCounts();
      PartitionResult partition =
          new PartitionResult(
              result.getTablePartition(),
              result.getPartitionCount(),
              ChunkState.valueOf(result.getState().name()),
              new RowTotals(
                  counts.getMatched(),
                  counts.getFailed(),
                  counts.getMissed(),
                  counts.getExtra(),
                  counts.getInFlight()),
              sample(result.getFailedKeys(), result.getMissedKeys(), result.getExtraKeys()));
      return new Result(
          result.getTask(),
          result.getRunId(),
          result.getTaskKind().name(),
          result.getTable(),
          result.getChunk(),
          result.getTarget(),
          result.getTopic(),
          result.getMarkerOffset(),
          result.getError(),
          partition);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "chunk result task="
              + result.getTask()
              + " run="
              + result.getRunId()
              + " table="
              + result.getTable()
              + " chunk="
              + result.getChunk()
              + " target="
              + result.getTarget()
              + " partition="
              + result.getTablePartition()
              + " cannot be counted: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * The chunk noted by a hash record (any of its records names it; the caller picks one), with its
   * source rows and slice. A record of a producer that did not count them reads as 0 rows of slice
   * 0 of 1 (the fields' defaults).
   *
   * @throws IllegalArgumentException naming the record's identity if its rows or slice are
   *     impossible
   */
  static Capture of(HashRecord record) {
    try {
      return new Capture(
          record.getTask(),
          record.getRunId(),
          record.getTaskKind().name(),
          record.getTable(),
          record.getChunk(),
          new NotedChunk(
              record.getChunkRows(),
              record.getComparedRows(),
              new RunSlice(record.getSlice(), record.getSlices())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "hash record task="
              + record.getTask()
              + " run="
              + record.getRunId()
              + " table="
              + record.getTable()
              + " chunk="
              + record.getChunk()
              + " cannot be noted: "
              + e.getMessage(),
          e);
    }
  }

  @SafeVarargs
  private static List<String> sample(List<String>... lists) {
    List<String> sample = new ArrayList<>(ChunkAssembly.SAMPLE_KEYS);
    for (List<String> keys : lists) {
      for (String key : keys) {
        if (sample.size() == ChunkAssembly.SAMPLE_KEYS) {
          return sample;
        }
        sample.add(key);
      }
    }
    return sample;
  }
}
