package io.cdccompare.producer.compare;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Writes a chunk's hash records: the compared keys are split by the partition each lives in on the
 * table topic (core's {@link KeyPartitioner}, the capture's function), one record per (chunk,
 * partition) — an empty one for a partition without compared keys, so every partition's verifier
 * finds its record — and a record that would pass {@code maxRecordBytes} is split into parts of
 * consecutive keys. {@link #write} returns once the broker acknowledged every part, with where each
 * landed. A key-list chunk's records also carry the absent keys and, per target, the keys each
 * target compares (docs/design.md, "Key-list chunks").
 *
 * <p>Record key: {@code task/runId/table/chunk/partition/part}, so that the compacted hashes topic
 * keeps the last write of a chunk that was read again after a crash.
 */
final class HashRecordWriter {
  /** Bytes an Avro record needs beyond its strings and keys (numbers, unions, array framing). */
  private static final int RECORD_OVERHEAD = 128;

  /** Bytes a key needs beyond its UTF-8 text: its length and the array item framing. */
  private static final int KEY_OVERHEAD = 6;

  /** Bytes a {@code targetKeys} entry needs beyond its name: lengths and the array framing. */
  private static final int TARGET_OVERHEAD = 16;

  private final Producer<String, HashRecord> producer;
  private final String topic;
  private final int maxRecordBytes;
  private CompareMeters meters;

  /**
   * Tells {@code meters} of every record written (the hashes waiting for targets); returns this.
   */
  HashRecordWriter recordingIn(CompareMeters meters) {
    this.meters = meters;
    return this;
  }

  HashRecordWriter(Producer<String, HashRecord> producer, String topic, int maxRecordBytes) {
    if (maxRecordBytes < 1024) {
      throw new IllegalArgumentException(
          "hash records must be allowed at least 1024 bytes, was " + maxRecordBytes);
    }
    this.producer = producer;
    this.topic = topic;
    this.maxRecordBytes = maxRecordBytes;
  }

  /**
   * The identity of a chunk's records, and which slice of it the run compares ({@code slice} of
   * {@code slices}, core {@code ChunkSampling}).
   */
  record ChunkId(
      String task, String runId, TaskKind kind, String table, long chunk, int slice, int slices) {}

  /** Writes and waits; the locations are in table-partition, then part order. */
  List<HashRecordLocation> write(ChunkId id, ScanPlan plan, ChunkRead read)
      throws InterruptedException, ExecutionException {
    return write(id, plan, read, List.of(), null);
  }

  /**
   * Writes a key-list chunk's records and waits (docs/design.md, "Key-list chunks"): besides the
   * present keys and their hashes, each partition's record holds the chunk's {@code absentKeys}
   * that live in that partition and, when {@code keyList} names targets, its {@code targetKeys}
   * ({@link KeyList#keysByTarget} over the record's present and absent keys).
   *
   * <p>A record too large is split as a full chunk's is, over the partition's present keys in the
   * chunk's order followed by its absent keys: each part holds a consecutive run of that sequence,
   * so a part holds present keys, absent keys or both, and its {@code targetKeys} name exactly the
   * part's own keys. The union over the parts is the record's.
   *
   * @param absentKeys the chunk's keys the source does not hold, in the chunk's order
   * @param keyList the chunk's keys with their targets; {@code null} for a full chunk
   * @return the locations, in table-partition, then part order
   */
  List<HashRecordLocation> write(
      ChunkId id, ScanPlan plan, ChunkRead read, List<String> absentKeys, KeyList keyList)
      throws InterruptedException, ExecutionException {
    int partitions = plan.partitions();
    Items items = new Items(read, absentKeys, keyList, plan.hashLength());
    int itemCount = items.count();
    // one UTF-8 pass per key: its partition and its size on the wire
    int[] partitionOf = new int[itemCount];
    int[] sizeOf = new int[itemCount];
    int[] perPartition = new int[partitions];
    for (int i = 0; i < itemCount; i++) {
      byte[] utf8 = items.key(i).getBytes(StandardCharsets.UTF_8);
      partitionOf[i] = KeyPartitioner.partitionOfUtf8(utf8, partitions);
      sizeOf[i] = items.wireSize(i, utf8.length);
      perPartition[partitionOf[i]]++;
    }
    int[][] byPartition = new int[partitions][];
    for (int p = 0; p < partitions; p++) {
      byPartition[p] = new int[perPartition[p]];
      perPartition[p] = 0;
    }
    for (int i = 0; i < itemCount; i++) {
      int p = partitionOf[i];
      byPartition[p][perPartition[p]++] = i;
    }
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    List<HashRecord> records = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      List<int[]> parts = split(id, plan, read, keyList, byPartition[p], sizeOf);
      for (int part = 0; part < parts.size(); part++) {
        HashRecord record = record(id, plan, read, items, p, part, parts.size(), parts.get(part));
        records.add(record);
        sent.add(producer.send(new ProducerRecord<>(topic, recordKey(record), record)));
      }
    }
    producer.flush();
    List<HashRecordLocation> locations = new ArrayList<>(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      RecordMetadata metadata = sent.get(i).get();
      HashRecord record = records.get(i);
      if (meters != null) {
        meters.hashRecordWritten(
            id.runId(),
            id.table(),
            id.chunk(),
            record.getTablePartition(),
            metadata.serializedValueSize());
      }
      locations.add(
          HashRecordLocation.newBuilder()
              .setTablePartition(record.getTablePartition())
              .setHashesPartition(metadata.partition())
              .setOffset(metadata.offset())
              .setPart(record.getPart())
              .setPartCount(record.getPartCount())
              .build());
    }
    return locations;
  }

  /**
   * A chunk's keys as one sequence: item {@code i < present} is the read's compared key {@code i},
   * the items after it the absent keys.
   */
  private static final class Items {
    private final ChunkRead read;
    private final List<String> absent;
    private final KeyList keyList;
    private final int present;
    private final int hashLength;

    Items(ChunkRead read, List<String> absent, KeyList keyList, int hashLength) {
      this.read = read;
      this.absent = absent;
      this.keyList = keyList;
      this.present = read.keys().size();
      this.hashLength = hashLength;
    }

    int count() {
      return present + absent.size();
    }

    boolean isPresent(int item) {
      return item < present;
    }

    String key(int item) {
      return item < present ? read.keys().get(item) : absent.get(item - present);
    }

    /**
     * Bytes the item takes in a record: its key, its hash when present, and its copy in the {@code
     * targetKeys} list of every target that compares it.
     */
    int wireSize(int item, int utf8Length) {
      int keySize = utf8Length + KEY_OVERHEAD;
      int targets = keyList == null ? 0 : keyList.targetsByKey().get(key(item)).size();
      return keySize + (isPresent(item) ? hashLength : 0) + targets * keySize;
    }
  }

  /** Consecutive runs of the partition's keys (indexes into the chunk), each within the limit. */
  private List<int[]> split(
      ChunkId id, ScanPlan plan, ChunkRead read, KeyList keyList, int[] indexes, int[] sizeOf) {
    int fixed =
        RECORD_OVERHEAD
            + utf8(id.task())
            + utf8(id.runId())
            + 2 * utf8(id.table())
            + utf8(plan.topic())
            + utf8(read.firstComparedKey())
            + utf8(read.lastComparedKey())
            + utf8(plan.hashFunction().name())
            + targetEntries(keyList);
    List<int[]> parts = new ArrayList<>();
    int start = 0;
    long size = fixed;
    for (int n = 0; n < indexes.length; n++) {
      int keySize = sizeOf[indexes[n]];
      if (fixed + keySize > maxRecordBytes) {
        throw new IllegalArgumentException(
            "table "
                + id.table()
                + ": one key of chunk "
                + id.chunk()
                + " needs "
                + (fixed + keySize)
                + " bytes, more than the largest hash record ("
                + maxRecordBytes
                + " bytes); raise hashes.max.record.bytes and the topic's max.message.bytes");
      }
      if (n > start && size + keySize > maxRecordBytes) {
        parts.add(java.util.Arrays.copyOfRange(indexes, start, n));
        start = n;
        size = fixed;
      }
      size += keySize;
    }
    parts.add(java.util.Arrays.copyOfRange(indexes, start, indexes.length));
    return parts;
  }

  /** Bytes the {@code targetKeys} entries take besides their keys: a name and framing each. */
  private static int targetEntries(KeyList keyList) {
    if (keyList == null) {
      return 0;
    }
    Set<String> targets = new TreeSet<>();
    keyList.targetsByKey().values().forEach(targets::addAll);
    return targets.stream().mapToInt(t -> utf8(t) + TARGET_OVERHEAD).sum();
  }

  private static HashRecord record(
      ChunkId id,
      ScanPlan plan,
      ChunkRead read,
      Items items,
      int partition,
      int part,
      int partCount,
      int[] indexes) {
    int hashLength = plan.hashLength();
    List<String> keys = new ArrayList<>(indexes.length);
    List<String> absent = new ArrayList<>();
    ByteBuffer hashes = ByteBuffer.allocate(indexes.length * hashLength);
    for (int index : indexes) {
      if (items.isPresent(index)) {
        keys.add(read.keys().get(index));
        hashes.put(read.hashes(), index * hashLength, hashLength);
      } else {
        absent.add(items.key(index));
      }
    }
    Map<String, List<String>> targetKeys = Map.of();
    if (items.keyList != null) {
      List<String> all = new ArrayList<>(keys);
      all.addAll(absent);
      targetKeys = items.keyList.keysByTarget(all);
    }
    return HashRecord.newBuilder()
        .setTask(id.task())
        .setRunId(id.runId())
        .setTaskKind(id.kind())
        .setTable(id.table())
        .setTopic(plan.topic())
        .setChunk(id.chunk())
        .setTablePartition(partition)
        .setPartitionCount(plan.partitions())
        .setPart(part)
        .setPartCount(partCount)
        .setFirstComparedKey(read.firstComparedKey())
        .setLastKey(read.lastComparedKey())
        .setHashFunction(plan.hashFunction().name())
        .setHashLength(hashLength)
        .setKeys(keys)
        .setHashes(hashes.flip())
        .setChunkRows(read.rows())
        .setComparedRows(read.comparedRows())
        .setSlice(id.slice())
        .setSlices(id.slices())
        .setAbsentKeys(absent)
        .setTargetKeys(targetKeys)
        .build();
  }

  static String recordKey(HashRecord r) {
    return r.getTask()
        + "/"
        + r.getRunId()
        + "/"
        + r.getTable()
        + "/"
        + r.getChunk()
        + "/"
        + r.getTablePartition()
        + "/"
        + r.getPart();
  }

  private static int utf8(String text) {
    return text == null ? 1 : text.getBytes(StandardCharsets.UTF_8).length + 5;
  }
}
