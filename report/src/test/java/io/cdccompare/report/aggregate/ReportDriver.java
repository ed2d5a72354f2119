package io.cdccompare.report.aggregate;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.registry.InMemorySchemaRegistry;
import io.cdccompare.schemas.registry.SchemaRegistry;
import io.cdccompare.schemas.serde.SpecificAvroSerde;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The report topology in a {@link TopologyTestDriver} with an in-JVM schema registry of its own:
 * pipes chunk results and hash records in, and keeps what came out — every report entry in order,
 * the latest entry per key (what the compacted topic converges to), and every alert.
 */
final class ReportDriver implements AutoCloseable {
  static final String TASK = "nightly";
  static final String RUN_1 = "20260304T050607Z-a1b2c3";
  static final String RUN_2 = "20260305T010203Z-d4e5f6";
  static final String RUN_3 = "20260306T010203Z-a7b8c9";
  static final String ORDERS = "public.orders";
  static final String LINES = "public.order_lines";
  static final Instant T0 = Instant.parse("2026-03-04T06:00:00Z");

  private final String registryScope = "report-test-" + UUID.randomUUID();
  private final TopologyTestDriver driver;
  private final TestInputTopic<String, ChunkResult> results;
  private final TestInputTopic<String, HashRecord> hashes;
  private final TestInputTopic<String, byte[]> hashBytes;
  private final org.apache.kafka.common.serialization.Serializer<HashRecord> hashSerializer;
  private final TestOutputTopic<String, ReportEntry> report;
  private final TestOutputTopic<String, Alert> alerts;
  private final List<ReportEntry> entries = new ArrayList<>();
  private final Map<String, ReportEntry> latest = new LinkedHashMap<>();
  private final List<Alert> alertsSeen = new ArrayList<>();
  private final List<String> alertKeys = new ArrayList<>();
  private Instant clock = T0;

  ReportDriver() {
    ReportConfig config = ReportConfig.of("pg", SchemaRegistry.MOCK_SCHEME + registryScope);
    Properties props = config.streamsProperties("unused:9092");
    driver = new TopologyTestDriver(ReportTopologyFactory.build(config), props);
    InMemorySchemaRegistry registry = InMemorySchemaRegistry.scope(registryScope);
    StringSerializer keys = new StringSerializer();
    results =
        driver.createInputTopic(
            config.resultsTopic(),
            keys,
            SpecificAvroSerde.forValues(registry, ChunkResult.class).serializer());
    hashSerializer = SpecificAvroSerde.forValues(registry, HashRecord.class).serializer();
    hashes = driver.createInputTopic(config.hashesTopic(), keys, hashSerializer);
    hashBytes =
        driver.createInputTopic(
            config.hashesTopic(),
            keys,
            new org.apache.kafka.common.serialization.ByteArraySerializer());
    report =
        driver.createOutputTopic(
            config.reportTopic(),
            new StringDeserializer(),
            SpecificAvroSerde.forValues(registry, ReportEntry.class).deserializer());
    alerts =
        driver.createOutputTopic(
            config.alertsTopic(),
            new StringDeserializer(),
            SpecificAvroSerde.forValues(registry, Alert.class).deserializer());
  }

  /** A VERIFIED result with no row counted; set counts and keys on the builder. */
  static ChunkResult.Builder result(
      String target, String runId, String table, long chunk, int partition, int partitionCount) {
    return ChunkResult.newBuilder()
        .setTask(TASK)
        .setRunId(runId)
        .setTaskKind(TaskKind.FULL)
        .setTable(table)
        .setTopic("pg." + table)
        .setChunk(chunk)
        .setTarget(target)
        .setTablePartition(partition)
        .setPartitionCount(partitionCount)
        .setMarkerOffset(100 + chunk)
        .setState(ChunkState.VERIFIED)
        .setCounts(counts(0, 0, 0, 0, 0))
        .setVerifiedAt(T0);
  }

  static RowCounts counts(long matched, long failed, long missed, long extra, long inFlight) {
    return new RowCounts(matched, failed, missed, extra, inFlight);
  }

  /** The hash record of (chunk, partition, part) as the compare producer writes it. */
  static HashRecord hashRecord(String runId, String table, long chunk, int partition, int part) {
    return HashRecord.newBuilder()
        .setTask(TASK)
        .setRunId(runId)
        .setTaskKind(TaskKind.FULL)
        .setTable(table)
        .setTopic("pg." + table)
        .setChunk(chunk)
        .setTablePartition(partition)
        .setPartitionCount(2)
        .setPart(part)
        .setPartCount(2)
        .setKeys(List.of("1"))
        .setHashes(ByteBuffer.wrap(new byte[16]))
        .build();
  }

  /** Pipes results in, each one second after the previous input. */
  void results(ChunkResult.Builder... builders) {
    for (ChunkResult.Builder builder : builders) {
      ChunkResult result = builder.build();
      results.pipeInput(result.getTask() + "/" + result.getTarget(), result, tick());
    }
  }

  /** Pipes the hash records of table partition 0, part 0 of these chunks. */
  void noted(String runId, String table, long... chunks) {
    for (long chunk : chunks) {
      hashRecords(hashRecord(runId, table, chunk, 0, 0));
    }
  }

  /**
   * Pipes the hash record of table partition 0, part 0 of {@code chunk}, which read {@code
   * chunkRows} rows on the source and compared {@code comparedRows} of them, slice {@code slice} of
   * {@code slices}.
   */
  void noted(
      String runId,
      String table,
      long chunk,
      long chunkRows,
      long comparedRows,
      int slice,
      int slices) {
    hashRecords(
        HashRecord.newBuilder(hashRecord(runId, table, chunk, 0, 0))
            .setChunkRows(chunkRows)
            .setComparedRows(comparedRows)
            .setSlice(slice)
            .setSlices(slices)
            .build());
  }

  void hashRecords(HashRecord... records) {
    for (HashRecord record : records) {
      hashes.pipeInput(key(record), record, tick());
    }
  }

  /** The first half of the bytes of this hash record, on the hashes topic (a cut record). */
  void truncatedHashRecord(HashRecord record) {
    byte[] whole = hashSerializer.serialize("hashes", record);
    hashBytes.pipeInput(key(record), java.util.Arrays.copyOf(whole, whole.length / 2), tick());
  }

  /** A tombstone on the hashes topic, as written once every target reported a chunk. */
  void hashTombstone(HashRecord record) {
    hashes.pipeInput(key(record), null, tick());
  }

  private static String key(HashRecord record) {
    return String.join(
        "/",
        record.getTask(),
        record.getRunId(),
        record.getTable(),
        Long.toString(record.getChunk()),
        Integer.toString(record.getTablePartition()),
        Integer.toString(record.getPart()));
  }

  private Instant tick() {
    clock = clock.plusSeconds(1);
    return clock;
  }

  /** When the last input was piped. */
  Instant lastInputTime() {
    return clock;
  }

  /** Every entry emitted so far, in order. */
  List<ReportEntry> entries() {
    drain();
    return List.copyOf(entries);
  }

  /** The latest entry of {@code key}, or null if none was emitted. */
  ReportEntry latest(String key) {
    drain();
    return latest.get(key);
  }

  /** The keys of every entry emitted so far, once each. */
  List<String> keys() {
    drain();
    return List.copyOf(latest.keySet());
  }

  /** Every alert raised so far, in order. */
  List<Alert> alerts() {
    drain();
    return List.copyOf(alertsSeen);
  }

  /** The record keys of {@link #alerts()}, in the same order. */
  List<String> alertKeys() {
    drain();
    return List.copyOf(alertKeys);
  }

  private void drain() {
    report
        .readKeyValuesToList()
        .forEach(
            kv -> {
              entries.add(kv.value);
              latest.put(kv.key, kv.value);
            });
    alerts
        .readKeyValuesToList()
        .forEach(
            kv -> {
              alertKeys.add(kv.key);
              alertsSeen.add(kv.value);
            });
  }

  @Override
  public void close() {
    driver.close();
    InMemorySchemaRegistry.dropScope(registryScope);
  }
}
