package io.cdccompare.report.aggregate;

import static io.cdccompare.report.aggregate.StateSerde.readString;
import static io.cdccompare.report.aggregate.StateSerde.readStrings;
import static io.cdccompare.report.aggregate.StateSerde.writeString;
import static io.cdccompare.report.aggregate.StateSerde.writeStrings;

import io.cdccompare.core.report.ChunkAssembly;
import io.cdccompare.core.report.NotedChunk;
import io.cdccompare.core.report.PartitionResult;
import io.cdccompare.core.report.ReportTotals;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.RunSlice;
import io.cdccompare.core.report.SourceRows;
import io.cdccompare.core.report.TableRun;
import io.cdccompare.core.report.TargetRun;
import io.cdccompare.core.verdict.ChunkState;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serde;

/** The serdes of the repartitioned inputs and of the state stores' values ({@link StateSerde}). */
final class ReportSerdes {
  private static final byte RESULT = 1;
  private static final byte CAPTURE = 2;

  private ReportSerdes() {}

  static Serde<ReportInput> inputs() {
    return new StateSerde<>("report input", ReportSerdes::writeInput, ReportSerdes::readInput);
  }

  static Serde<TableRun> tableRuns() {
    return new StateSerde<>(
        "table run",
        (run, out) -> {
          writeString(out, run.runId());
          writeString(out, run.taskKind());
          out.writeLong(run.captureChunks());
          out.writeLong(run.sourceRows());
          out.writeLong(run.comparedRows());
          out.writeLong(run.earlierRows());
          out.writeBoolean(run.slice().isPresent());
          if (run.slice().isPresent()) {
            writeSlice(out, run.slice().get());
          }
        },
        in ->
            new TableRun(
                readString(in),
                readString(in),
                in.readLong(),
                in.readLong(),
                in.readLong(),
                in.readLong(),
                in.readBoolean() ? Optional.of(readSlice(in)) : Optional.empty()));
  }

  static Serde<TargetRun> targetRuns() {
    return new StateSerde<>(
        "target run",
        (run, out) -> {
          writeString(out, run.runId());
          writeTotals(out, run.totals());
          out.writeBoolean(run.differencesRaised());
        },
        in -> new TargetRun(readString(in), readTotals(in), in.readBoolean()));
  }

  static Serde<ChunkAssembly> chunkAssemblies() {
    return new StateSerde<>(
        "chunk assembly",
        (chunk, out) -> {
          writeString(out, chunk.runId());
          out.writeInt(chunk.partitionCount());
          Set<Integer> partitions = new TreeSet<>(chunk.partitions());
          out.writeInt(partitions.size());
          for (int partition : partitions) {
            out.writeInt(partition);
          }
          out.writeBoolean(chunk.unverifiable());
          out.writeBoolean(chunk.schemaDrift());
          writeRows(out, chunk.rows());
          writeStrings(out, chunk.sampleKeys());
        },
        in -> {
          String runId = readString(in);
          int partitionCount = in.readInt();
          int size = in.readInt();
          if (size < 0 || size > partitionCount) {
            throw new IOException(size + " partitions held of " + partitionCount);
          }
          List<Integer> partitions = new ArrayList<>(size);
          for (int i = 0; i < size; i++) {
            partitions.add(in.readInt());
          }
          return new ChunkAssembly(
              runId,
              partitionCount,
              Set.copyOf(partitions),
              in.readBoolean(),
              in.readBoolean(),
              readRows(in),
              readStrings(in));
        });
  }

  private static void writeInput(ReportInput input, DataOutputStream out) throws IOException {
    out.writeByte(input instanceof ReportInput.Result ? RESULT : CAPTURE);
    writeString(out, input.task());
    writeString(out, input.runId());
    writeString(out, input.taskKind());
    writeString(out, input.table());
    out.writeLong(input.chunk());
    if (input instanceof ReportInput.Capture capture) {
      out.writeLong(capture.noted().rows());
      out.writeLong(capture.noted().comparedRows());
      writeSlice(out, capture.noted().slice());
    }
    if (input instanceof ReportInput.Result result) {
      writeString(out, result.target());
      writeString(out, result.topic());
      out.writeLong(result.markerOffset());
      writeString(out, result.error());
      PartitionResult partition = result.partition();
      out.writeInt(partition.tablePartition());
      out.writeInt(partition.partitionCount());
      writeString(out, partition.state().name());
      writeRows(out, partition.rows());
      writeStrings(out, partition.differenceKeys());
    }
  }

  private static ReportInput readInput(DataInputStream in) throws IOException {
    byte kind = in.readByte();
    if (kind != RESULT && kind != CAPTURE) {
      throw new IOException("unknown report input kind " + kind);
    }
    String task = readString(in);
    String runId = readString(in);
    String taskKind = readString(in);
    String table = readString(in);
    long chunk = in.readLong();
    if (kind == CAPTURE) {
      NotedChunk noted = new NotedChunk(in.readLong(), in.readLong(), readSlice(in));
      return new ReportInput.Capture(task, runId, taskKind, table, chunk, noted);
    }
    String target = readString(in);
    String topic = readString(in);
    long markerOffset = in.readLong();
    String error = readString(in);
    PartitionResult partition =
        new PartitionResult(
            in.readInt(),
            in.readInt(),
            ChunkState.valueOf(readString(in)),
            readRows(in),
            readStrings(in));
    return new ReportInput.Result(
        task, runId, taskKind, table, chunk, target, topic, markerOffset, error, partition);
  }

  private static void writeTotals(DataOutputStream out, ReportTotals totals) throws IOException {
    out.writeLong(totals.captureChunks());
    out.writeLong(totals.applyChunks());
    out.writeLong(totals.unverifiableChunks());
    out.writeLong(totals.schemaDriftChunks());
    writeRows(out, totals.rows());
    out.writeLong(totals.source().read());
    out.writeLong(totals.source().compared());
    out.writeLong(totals.source().covered());
    out.writeLong(totals.nothingComparedTables());
  }

  private static ReportTotals readTotals(DataInputStream in) throws IOException {
    return new ReportTotals(
        in.readLong(),
        in.readLong(),
        in.readLong(),
        in.readLong(),
        readRows(in),
        new SourceRows(in.readLong(), in.readLong(), in.readLong()),
        in.readLong());
  }

  private static void writeSlice(DataOutputStream out, RunSlice slice) throws IOException {
    out.writeInt(slice.slice());
    out.writeInt(slice.slices());
  }

  private static RunSlice readSlice(DataInputStream in) throws IOException {
    return new RunSlice(in.readInt(), in.readInt());
  }

  private static void writeRows(DataOutputStream out, RowTotals rows) throws IOException {
    out.writeLong(rows.matched());
    out.writeLong(rows.failed());
    out.writeLong(rows.missed());
    out.writeLong(rows.extra());
    out.writeLong(rows.inFlight());
  }

  private static RowTotals readRows(DataInputStream in) throws IOException {
    return new RowTotals(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
  }
}
