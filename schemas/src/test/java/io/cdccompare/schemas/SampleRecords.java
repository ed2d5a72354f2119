package io.cdccompare.schemas;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ComparedRange;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.SourcePosition;
import io.cdccompare.schemas.avro.TaskKind;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * One record of each catalog type with every field set, most to a value other than its default, so
 * a round trip that drops or mixes up a field shows.
 */
public final class SampleRecords {
  public static final Instant AT = Instant.parse("2026-03-04T05:06:07.123456Z");

  private SampleRecords() {}

  public static List<SpecificRecord> all() {
    return List.of(closeMarker(), hashRecord(), chunkResult(), reportEntry(), alert());
  }

  public static SpecificRecord of(Schemas.Entry entry) {
    return switch (entry) {
      case MARKER -> closeMarker();
      case HASH_RECORD -> hashRecord();
      case CHUNK_RESULT -> chunkResult();
      case REPORT_ENTRY -> reportEntry();
      case ALERT -> alert();
    };
  }

  public static Marker closeMarker() {
    return Marker.newBuilder()
        .setTask("nightly")
        .setRunId("run-7")
        .setTaskKind(TaskKind.INCREMENTAL)
        .setTable("public.\"Order Lines\"")
        .setTopic("pg.public.order_lines")
        .setChunk(42)
        .setPhase(MarkerPhase.CLOSE)
        .setFirstComparedKey("1001,a\\,b")
        .setLastKey("1100,z")
        .setChunkRows(1000L)
        .setComparedRows(100L)
        .setHashesTopic("pg.compare.hashes")
        .setHashRecords(
            List.of(
                new HashRecordLocation(0, 3, 1234L, 0, 2),
                new HashRecordLocation(0, 3, 1236L, 1, 2),
                new HashRecordLocation(1, 0, 99L, 0, 1)))
        .setColumnFingerprint("md5:0123456789abcdef")
        .setDeep(10)
        .setSourcePosition(new SourcePosition(0x1_0000_0000L + 7, 0x1_0000_0000L + 5, 4711L))
        .setNotedAt(AT)
        .setPartition(1)
        .setPartitionCount(2)
        .setComparedShape(
            "{\"table\":\"shop.orders\",\"targetTable\":null,\"format\":\"COMPATIBLE\","
                + "\"hashFunction\":\"MD5\",\"keyColumns\":[],\"columns\":[]}")
        .setComparedRange(new ComparedRange("1001,a\\,b", true, "1100,z"))
        .setSlice(2)
        .setSlices(10)
        .build();
  }

  public static Marker openMarker() {
    return Marker.newBuilder(closeMarker())
        .setPhase(MarkerPhase.OPEN)
        .setFirstComparedKey(null)
        .setLastKey(null)
        .setChunkRows(null)
        .setComparedRows(null)
        .setHashesTopic(null)
        .setHashRecords(List.of())
        .setComparedRange(null)
        .build();
  }

  public static HashRecord hashRecord() {
    byte[] first = new byte[20];
    byte[] second = new byte[20];
    for (int i = 0; i < 20; i++) {
      first[i] = (byte) i;
      second[i] = (byte) (255 - i);
    }
    return HashRecord.newBuilder()
        .setTask("nightly")
        .setRunId("run-7")
        .setTaskKind(TaskKind.FULL)
        .setTable("public.orders")
        .setTopic("pg.public.orders")
        .setChunk(3)
        .setTablePartition(5)
        .setPartitionCount(8)
        .setPart(1)
        .setPartCount(3)
        .setFirstComparedKey("17")
        .setLastKey("9001")
        .setHashFunction("SHA-1")
        .setHashLength(20)
        .setKeys(List.of("17", "héllo,\\,wörld"))
        .setHashes(ChunkHashes.pack(List.of(first, second), 20))
        .setChunkRows(1_000)
        .setComparedRows(100)
        .setSlice(2)
        .setSlices(10)
        .setAbsentKeys(List.of("404"))
        .setTargetKeys(java.util.Map.of("pg-replica", List.of("17", "404")))
        .build();
  }

  public static RowCounts counts() {
    return new RowCounts(9L, 1L, 2L, 3L, 4L);
  }

  public static ChunkResult chunkResult() {
    return ChunkResult.newBuilder()
        .setTask("nightly")
        .setRunId("run-7")
        .setTaskKind(TaskKind.REPAIR)
        .setTable("public.orders")
        .setTopic("pg.public.orders")
        .setChunk(3)
        .setTarget("mariadb-eu")
        .setTablePartition(5)
        .setPartitionCount(8)
        .setMarkerOffset(777L)
        .setState(ChunkState.SCHEMA_DRIFT)
        .setCounts(counts())
        .setFailedKeys(List.of("10"))
        .setMissedKeys(List.of("11", "12"))
        .setExtraKeys(List.of("13", "14", "15"))
        .setInFlightKeys(List.of("16", "17", "18", "19"))
        .setError("column amount is numeric(10,2) on the source, double on the target")
        .setVerifiedAt(AT)
        .build();
  }

  public static ReportEntry reportEntry() {
    return ReportEntry.newBuilder()
        .setTask("nightly")
        .setTarget("pg-eu")
        .setTable("public.orders")
        .setRunId("run-7")
        .setTaskKind(TaskKind.RECHECK)
        .setCounts(counts())
        .setCaptureChunks(12L)
        .setApplyChunks(10L)
        .setUnverifiableChunks(1L)
        .setSchemaDriftChunks(2L)
        .setStatus(ReportStatus.DIFFERENCES)
        .setLastUpdate(AT)
        .setSourceRows(120_000L)
        .setComparedSourceRows(12_000L)
        .setCoveredRows(36_000L)
        .setSlice(2)
        .setSlices(10)
        .build();
  }

  public static Alert alert() {
    return Alert.newBuilder()
        .setCode(AlertCode.RESYNC_NEEDED)
        .setOrigin("pg-eu")
        .setTask("nightly")
        .setRunId("run-7")
        .setTable("public.orders")
        .setTarget("pg-eu")
        .setChunk(3L)
        .setMessage("consumer offsets of pg.public.orders expired")
        .setCounts(counts())
        .setSampleKeys(List.of("10", "11"))
        .setTopic("pg.public.orders")
        .setPartition(5)
        .setOffset(777L)
        .setLsn(0x2_0000_0000L)
        .setRaisedAt(AT)
        .build();
  }
}
