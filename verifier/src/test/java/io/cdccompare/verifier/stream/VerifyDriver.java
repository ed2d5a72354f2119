package io.cdccompare.verifier.stream;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.ChunkHashes;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.SourcePosition;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.verifier.apply.RecordPosition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The verify topology in a {@link TopologyTestDriver} on a {@link FakeTarget} and a {@link
 * FakeTopicReader}: table {@code public.items (id int primary key, name text)}, topic {@code
 * p.public.items} with one partition, changes and markers written as the capture writes them.
 */
final class VerifyDriver implements AutoCloseable {
  static final String TOPIC = "p.public.items";
  static final String HASHES = "p.compare.hashes";
  static final String TASK = "full";
  static final String RUN = "20260101T000000Z-abcdef";
  static final Instant NOW = Instant.parse("2026-01-02T03:04:05.123456Z");
  static final Duration FOLLOW_STALL_TIMEOUT = Duration.ofSeconds(5);

  private static final AtomicInteger REGISTRIES = new AtomicInteger();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("p.public.items.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("p.public.items.Envelope")
          .field("before", ROW)
          .field("after", ROW)
          .field("op", Schema.STRING_SCHEMA)
          .build();
  static final ComparedShape SHAPE =
      new ComparedShape(
          List.of(HashedColumn.of("id", LogicalType.INTEGER)),
          new HashPlan(
              "public.items",
              List.of(
                  HashedColumn.of("id", LogicalType.INTEGER),
                  HashedColumn.of("name", LogicalType.TEXT))),
          CanonicalFormat.COMPATIBLE,
          "MD5",
          null);

  final FakeTarget target = new FakeTarget();
  final FakeTopicReader reader = new FakeTopicReader();
  final FakeTicker ticker = new FakeTicker();

  /** An alert the verifier raised itself. */
  record RaisedAlert(AlertCode code, RecordPosition at, TableName table, String message) {}

  final List<RaisedAlert> alerts = new ArrayList<>();
  final VerifierSettings settings;
  private final Path stateDir;
  private final TopologyTestDriver driver;
  private final TestInputTopic<byte[], byte[]> input;
  private final TestOutputTopic<String, ChunkResult> results;
  private final SpecificAvroSerializer<Marker> markers = new SpecificAvroSerializer<>();
  private final SpecificAvroSerializer<HashRecord> hashRecords = new SpecificAvroSerializer<>();
  private final JsonConverter json = new JsonConverter();
  private long offset;
  private long hashOffset;

  VerifyDriver() throws Exception {
    this(null);
  }

  /**
   * A verify-only target following {@code followed}, with a stall timeout of {@link
   * #FOLLOW_STALL_TIMEOUT}; an apply+verify target when it is null.
   */
  VerifyDriver(FakeFollowedGroup followed) throws Exception {
    String registry = "mock://verify-driver-" + REGISTRIES.incrementAndGet();
    VerifierSettings.Builder builder =
        VerifierSettings.builder("t1")
            .bootstrapServers("unused:9092")
            .registryUrl(registry)
            .topicPrefix("p")
            .table(TableName.parse("public.items"))
            .target("jdbc:postgresql://unused/db", "u", "secret")
            .applyBatchSize(500)
            .applyMaxDelay(Duration.ofHours(1))
            .hashesTimeout(Duration.ofMillis(10));
    if (followed != null) {
      builder.verifyOnly(followed.groupId()).followStallTimeout(FOLLOW_STALL_TIMEOUT);
    }
    settings = builder.build();
    stateDir = Files.createTempDirectory("verify-driver");
    Properties props = VerifyTopologyFactory.streamsProperties(settings);
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver =
        new TopologyTestDriver(
            VerifyTopologyFactory.build(
                settings,
                taskId -> target,
                () -> reader,
                Clock.fixed(NOW, ZoneOffset.UTC),
                (code, at, table, error) ->
                    alerts.add(new RaisedAlert(code, at, table, error.getMessage())),
                followed == null ? null : () -> followed,
                ticker),
            props);
    input = driver.createInputTopic(TOPIC, new ByteArraySerializer(), new ByteArraySerializer());
    SpecificAvroDeserializer<ChunkResult> values = new SpecificAvroDeserializer<>();
    values.configure(
        Map.of(
            "schema.registry.url",
            registry,
            SpecificAvroDeserializer.VALUE_TYPE,
            ChunkResult.class.getName()),
        false);
    results =
        driver.createOutputTopic(
            settings.tables().resultsTopic(), new StringDeserializer(), values);
    markers.configure(Map.of("schema.registry.url", registry), false);
    hashRecords.configure(Map.of("schema.registry.url", registry), false);
    json.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
  }

  /** A data change of {@code op} c, u or r (after image) or d (before image); its offset. */
  long change(String op, int id, String name) {
    Struct row = new Struct(ROW).put("id", id).put("name", name);
    Struct envelope = new Struct(ENVELOPE).put("op", op);
    envelope.put(op.equals("d") ? "before" : "after", row);
    return pipe(key(id), json.fromConnectData(TOPIC, ENVELOPE, envelope), headers(op, null));
  }

  long tombstone(int id) {
    return pipe(key(id), null, headers("d", null));
  }

  /** A record with any value bytes. */
  long raw(int id, byte[] value) {
    return pipe(key(id), value, headers("c", null));
  }

  long open(long chunk) {
    Marker marker = marker(chunk, MarkerPhase.OPEN).build();
    return pipe(null, MarkerEnvelope.wrap(markers.serialize(TOPIC, marker)), headers("m", "OPEN"));
  }

  /**
   * A CLOSE marker whose hash record (written first to the hashes topic) holds these keys and
   * hashes of partition 0.
   */
  long close(long chunk, String firstKey, String lastKey, Map<String, byte[]> hashes) {
    long at = hashOffset++;
    reader.put(HASHES, 0, at, hashRecord(chunk, firstKey, lastKey, hashes));
    return closeMarker(chunk, firstKey, lastKey, at);
  }

  /** Chunk {@code chunk}'s hash record of partition 0, serialized as the producer writes it. */
  byte[] hashRecord(long chunk, String firstKey, String lastKey, Map<String, byte[]> hashes) {
    List<String> keys = new ArrayList<>(hashes.keySet());
    List<byte[]> values = new ArrayList<>();
    keys.forEach(k -> values.add(hashes.get(k)));
    HashRecord record =
        HashRecord.newBuilder()
            .setTask(TASK)
            .setRunId(RUN)
            .setTaskKind(TaskKind.FULL)
            .setTable("public.items")
            .setTopic(TOPIC)
            .setChunk(chunk)
            .setTablePartition(0)
            .setPartitionCount(1)
            .setFirstComparedKey(firstKey)
            .setLastKey(lastKey)
            .setHashFunction("MD5")
            .setHashLength(16)
            .setKeys(keys)
            .setHashes(ChunkHashes.pack(values, 16))
            .build();
    return hashRecords.serialize(HASHES, record);
  }

  /** Puts {@code bytes} on the hashes topic at its next offset; returns the offset. */
  long putHashBytes(byte[] bytes) {
    long at = hashOffset++;
    reader.put(HASHES, 0, at, bytes);
    return at;
  }

  /**
   * The compared key range the next CLOSE markers carry; {@code null} (the default) makes them
   * markers of an older producer, whose range is {@code [firstKey, lastKey]}.
   */
  io.cdccompare.schemas.avro.ComparedRange closeRange;

  /** A CLOSE marker pointing at a hash record at {@code hashOffset} of partition 0. */
  long closeMarker(long chunk, String firstKey, String lastKey, long hashOffset) {
    Marker marker =
        marker(chunk, MarkerPhase.CLOSE)
            .setComparedRange(closeRange)
            .setFirstComparedKey(firstKey)
            .setLastKey(lastKey)
            .setChunkRows(10L)
            .setComparedRows(10L)
            .setHashesTopic(HASHES)
            .setHashRecords(
                List.of(
                    HashRecordLocation.newBuilder()
                        .setTablePartition(0)
                        .setHashesPartition(0)
                        .setOffset(hashOffset)
                        .build()))
            .build();
    return pipe(null, MarkerEnvelope.wrap(markers.serialize(TOPIC, marker)), headers("m", "CLOSE"));
  }

  /** One part of a key-list chunk's hash record of partition 0. */
  record KeyListPart(
      Map<String, byte[]> hashes, List<String> absentKeys, Map<String, List<String>> targetKeys) {}

  /**
   * The task kind of the markers written from now on (FULL by default); a key-list chunk's is
   * RECHECK or INCREMENTAL.
   */
  TaskKind taskKind = TaskKind.FULL;

  /**
   * A CLOSE marker of a key-list chunk (of {@link #taskKind}) whose hash record of partition 0 is
   * written first in these parts, with their absent keys and keys per target; the marker carries
   * {@link #closeRange} (null unless a test sets it).
   */
  long closeKeyList(long chunk, List<KeyListPart> parts) {
    List<HashRecordLocation> locations = new ArrayList<>();
    for (int part = 0; part < parts.size(); part++) {
      KeyListPart content = parts.get(part);
      long at = hashOffset++;
      List<String> keys = new ArrayList<>(content.hashes().keySet());
      List<byte[]> values = new ArrayList<>();
      keys.forEach(k -> values.add(content.hashes().get(k)));
      HashRecord record =
          HashRecord.newBuilder()
              .setTask(TASK)
              .setRunId(RUN)
              .setTaskKind(taskKind)
              .setTable("public.items")
              .setTopic(TOPIC)
              .setChunk(chunk)
              .setTablePartition(0)
              .setPartitionCount(1)
              .setPart(part)
              .setPartCount(parts.size())
              .setHashFunction("MD5")
              .setHashLength(16)
              .setKeys(keys)
              .setHashes(ChunkHashes.pack(values, 16))
              .setAbsentKeys(content.absentKeys())
              .setTargetKeys(content.targetKeys())
              .build();
      reader.put(HASHES, 0, at, hashRecords.serialize(HASHES, record));
      locations.add(
          HashRecordLocation.newBuilder()
              .setTablePartition(0)
              .setHashesPartition(0)
              .setOffset(at)
              .setPart(part)
              .setPartCount(parts.size())
              .build());
    }
    Marker marker =
        marker(chunk, MarkerPhase.CLOSE)
            .setComparedRange(closeRange)
            .setChunkRows(10L)
            .setComparedRows(10L)
            .setHashesTopic(HASHES)
            .setHashRecords(locations)
            .build();
    return pipe(null, MarkerEnvelope.wrap(markers.serialize(TOPIC, marker)), headers("m", "CLOSE"));
  }

  private Marker.Builder marker(long chunk, MarkerPhase phase) {
    return Marker.newBuilder()
        .setTask(TASK)
        .setRunId(RUN)
        .setTaskKind(taskKind)
        .setTable("public.items")
        .setTopic(TOPIC)
        .setChunk(chunk)
        .setPhase(phase)
        .setColumnFingerprint(SHAPE.fingerprint())
        .setDeep(100)
        .setSourcePosition(
            SourcePosition.newBuilder().setCommitLsn(100).setEventLsn(99).setTxId(7L).build())
        .setNotedAt(NOW)
        .setPartition(0)
        .setPartitionCount(1)
        .setComparedShape(SHAPE.toJson());
  }

  List<ChunkResult> results() {
    return results.readValuesToList();
  }

  List<TestRecord<String, ChunkResult>> resultRecords() {
    return results.readRecordsToList();
  }

  static byte[] key(int id) {
    return Integer.toString(id).getBytes(StandardCharsets.UTF_8);
  }

  private long pipe(byte[] key, byte[] value, RecordHeaders headers) {
    input.pipeInput(new TestRecord<>(key, value, headers, NOW));
    return offset++;
  }

  private RecordHeaders headers(String op, String marker) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("cdc.lsn.commit", Long.toString(1000 + offset).getBytes(StandardCharsets.UTF_8));
    headers.add("cdc.lsn", Long.toString(900 + offset).getBytes(StandardCharsets.UTF_8));
    headers.add("cdc.txid", "42".getBytes(StandardCharsets.UTF_8));
    headers.add("cdc.op", op.getBytes(StandardCharsets.UTF_8));
    if (marker != null) {
      headers.add("cdc.marker", marker.getBytes(StandardCharsets.UTF_8));
    }
    return headers;
  }

  @Override
  public void close() throws java.io.IOException {
    driver.close();
    try (var paths = Files.walk(stateDir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
