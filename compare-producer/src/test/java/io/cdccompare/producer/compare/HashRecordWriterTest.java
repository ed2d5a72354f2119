package io.cdccompare.producer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.producer.compare.HashRecordWriter.ChunkId;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The hash records of full and key-list chunks, split by partition and by size. */
class HashRecordWriterTest {
  private static final int PARTITIONS = 3;
  private static final ScanPlan PLAN =
      new ScanPlan(
          null,
          null,
          null,
          List.of(),
          null,
          Map.of(),
          null,
          HashFunction.md5(),
          16,
          "p.public.t",
          PARTITIONS,
          false);
  private static final ChunkId FULL =
      new ChunkId("task", "run", TaskKind.FULL, "public.t", 4, 0, 1);
  private static final ChunkId RECHECK =
      new ChunkId("task", "run.recheck1", TaskKind.RECHECK, "public.t", 0, 0, 1);

  private final MockProducer<String, HashRecord> producer =
      new MockProducer<>(true, null, new StringSerializer(), (topic, record) -> new byte[0]);

  @Test
  void aKeyListChunkGivesEachPartitionItsPresentAndAbsentKeysAndTheirTargets() throws Exception {
    // Given a chunk of 40 keys, 25 on the source and 15 absent, each compared at one or two
    // targets
    KeyList list = keyList(40, 2);
    ChunkRead read = read(list.keys().subList(0, 25), 40);
    List<String> absent = list.keys().subList(25, 40);

    // When its records are written
    new HashRecordWriter(producer, "hashes", 1_000_000).write(RECHECK, PLAN, read, absent, list);

    // Then every partition has one record, holding exactly its keys, absent keys and targets
    List<HashRecord> records = sent();
    assertThat(records).extracting(HashRecord::getTablePartition).containsExactly(0, 1, 2);
    for (HashRecord r : records) {
      int p = r.getTablePartition();
      assertThat(r.getKeys()).isEqualTo(inPartition(read.keys(), p));
      assertThat(r.getAbsentKeys()).isEqualTo(inPartition(absent, p));
      List<String> own = new ArrayList<>(r.getKeys());
      own.addAll(r.getAbsentKeys());
      assertThat(r.getTargetKeys()).isEqualTo(list.keysByTarget(own));
      assertThat(r.getTaskKind()).isEqualTo(TaskKind.RECHECK);
      assertThat(r.getChunkRows()).isEqualTo(40);
      assertThat(r.getComparedRows()).isEqualTo(25);
    }
    assertThat(records.stream().mapToInt(r -> r.getHashes().remaining()).sum()).isEqualTo(25 * 16);
  }

  @Test
  void aKeyListChunkComparedAtEveryTargetHasNoTargetKeys() throws Exception {
    // Given a chunk whose keys are compared at every target
    KeyList list = keyList(10, 0);
    ChunkRead read = read(list.keys().subList(0, 6), 10);

    // When its records are written
    new HashRecordWriter(producer, "hashes", 1_000_000)
        .write(RECHECK, PLAN, read, list.keys().subList(6, 10), list);

    // Then no record names a target
    assertThat(sent()).hasSize(PARTITIONS).allMatch(r -> r.getTargetKeys().isEmpty());
  }

  @Test
  void aKeyListRecordTooLargeIsSplitIntoPartsWithinTheLimitWhoseUnionIsTheRecord()
      throws Exception {
    // Given 600 keys, 300 present and 300 absent, each compared at two targets of three, and
    // records of at most 1 024 bytes
    KeyList list = keyList(600, 3);
    ChunkRead read = read(list.keys().subList(0, 300), 600);
    List<String> absent = list.keys().subList(300, 600);

    // When the records are written
    List<HashRecordLocation> locations =
        new HashRecordWriter(producer, "hashes", 1024).write(RECHECK, PLAN, read, absent, list);

    // Then every part fits, the parts of each partition are numbered 0..n-1, and their union is
    // the partition's record
    List<HashRecord> records = sent();
    assertThat(locations).hasSize(records.size());
    assertThat(records.size()).isGreaterThan(10);
    for (int p = 0; p < PARTITIONS; p++) {
      int partition = p;
      List<HashRecord> parts =
          records.stream().filter(r -> r.getTablePartition() == partition).toList();
      assertThat(parts).extracting(HashRecord::getPart).isEqualTo(range(parts.size()));
      assertThat(parts).allMatch(r -> r.getPartCount() == parts.size());
      List<String> keys = new ArrayList<>();
      List<String> absentKeys = new ArrayList<>();
      Map<String, Set<String>> targetKeys = new TreeMap<>();
      for (HashRecord r : parts) {
        assertThat(r.toByteBuffer().remaining()).as("part size").isLessThanOrEqualTo(1024);
        keys.addAll(r.getKeys());
        absentKeys.addAll(r.getAbsentKeys());
        r.getTargetKeys()
            .forEach((t, k) -> targetKeys.computeIfAbsent(t, x -> new TreeSet<>()).addAll(k));
      }
      assertThat(keys).isEqualTo(inPartition(read.keys(), p));
      assertThat(absentKeys).isEqualTo(inPartition(absent, p));
      List<String> all = new ArrayList<>(keys);
      all.addAll(absentKeys);
      Map<String, Set<String>> expected = new TreeMap<>();
      list.keysByTarget(all).forEach((t, k) -> expected.put(t, new TreeSet<>(k)));
      assertThat(targetKeys).isEqualTo(expected);
    }
  }

  @Test
  void aFullChunkHasNoAbsentOrTargetKeys() throws Exception {
    // Given a full chunk's read
    ChunkRead read = read(List.of("1", "2", "3", "4", "5"), 5);

    // When its records are written
    new HashRecordWriter(producer, "hashes", 1_000_000).write(FULL, PLAN, read);

    // Then they hold its keys and nothing of a key-list chunk
    List<HashRecord> records = sent();
    assertThat(records).hasSize(PARTITIONS);
    assertThat(records.stream().flatMap(r -> r.getKeys().stream()))
        .containsExactlyInAnyOrder("1", "2", "3", "4", "5");
    assertThat(records).allMatch(r -> r.getAbsentKeys().isEmpty() && r.getTargetKeys().isEmpty());
  }

  /**
   * {@code n} keys; with {@code targets > 0} key {@code i} is compared at targets t0..t(i %
   * targets).
   */
  private static KeyList keyList(int n, int targets) {
    Map<String, Set<String>> keys = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      Set<String> at = new TreeSet<>();
      for (int t = 0; t < targets && t <= i % targets; t++) {
        at.add("target-" + t);
      }
      keys.put("key-" + (1000 + i), at);
    }
    return new KeyList(keys);
  }

  /** A key-list read of {@code present} keys (hash i: 16 bytes of i) out of {@code asked}. */
  private static ChunkRead read(List<String> present, int asked) {
    byte[] hashes = new byte[present.size() * 16];
    for (int i = 0; i < present.size(); i++) {
      java.util.Arrays.fill(hashes, i * 16, (i + 1) * 16, (byte) i);
    }
    return new ChunkRead(asked, null, null, null, null, List.copyOf(present), hashes, false);
  }

  private List<HashRecord> sent() {
    return producer.history().stream().map(ProducerRecord::value).toList();
  }

  private static List<String> inPartition(List<String> keys, int partition) {
    return keys.stream().filter(k -> KeyPartitioner.partition(k, PARTITIONS) == partition).toList();
  }

  private static List<Integer> range(int n) {
    return java.util.stream.IntStream.range(0, n).boxed().toList();
  }
}
