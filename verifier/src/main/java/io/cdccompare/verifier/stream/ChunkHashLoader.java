package io.cdccompare.verifier.stream;

import io.cdccompare.schemas.ChunkHashes;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.Marker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Loads the hashes of one chunk for one partition of the table topic: every part the CLOSE marker
 * lists for this partition, read at its offset on the hashes topic, checked to be exactly the part
 * the marker means (task, run, table, chunk, partition, part, partition count, hash function) and
 * merged into one key → hash map, with the absent keys and the keys per target of a key-list chunk
 * (docs/design.md, "Key-list chunks"). Anything missing or not matching makes the chunk
 * UNVERIFIABLE with a reason ({@link Loaded#missing()}), never a verdict on partial hashes; a
 * record deleted from the hashes topic is named gone, with the offset its partition now starts at.
 */
final class ChunkHashLoader {
  private final TopicReader reader;
  private final Deserializer<HashRecord> records;
  private final Duration timeout;

  ChunkHashLoader(TopicReader reader, Deserializer<HashRecord> records, Duration timeout) {
    this.reader = reader;
    this.records = records;
    this.timeout = timeout;
  }

  /**
   * The chunk's hashes in this partition, or why they cannot be had.
   *
   * @param absentKeys key-list chunks: the keys compared that the source did not hold, merged over
   *     the parts; never a hashed key
   * @param targetKeys key-list chunks: target name → the keys (hashed or absent) it compares, the
   *     union of the parts' entries; empty when every target compares every key
   */
  record Loaded(
      Map<String, byte[]> hashes,
      Set<String> absentKeys,
      Map<String, Set<String>> targetKeys,
      String missing) {
    static Loaded missing(String why) {
      return new Loaded(Map.of(), Set.of(), Map.of(), why);
    }

    boolean found() {
      return missing == null;
    }
  }

  Loaded load(Marker close, int partition, String hashFunction) {
    String topic = close.getHashesTopic();
    if (topic == null || topic.isEmpty()) {
      return Loaded.missing("the CLOSE marker names no hashes topic");
    }
    List<HashRecordLocation> parts = new ArrayList<>();
    for (HashRecordLocation location : close.getHashRecords()) {
      if (location.getTablePartition() == partition) {
        parts.add(location);
      }
    }
    parts.sort(Comparator.comparingInt(HashRecordLocation::getPart));
    if (parts.isEmpty()) {
      return Loaded.missing("the CLOSE marker lists no hash record for partition " + partition);
    }
    int partCount = parts.get(0).getPartCount();
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).getPart() != i || parts.get(i).getPartCount() != partCount) {
        return Loaded.missing(
            "the CLOSE marker lists parts "
                + parts.stream().map(p -> p.getPart() + "/" + p.getPartCount()).toList()
                + " for partition "
                + partition);
      }
    }
    if (parts.size() != partCount) {
      return Loaded.missing(
          "the CLOSE marker lists " + parts.size() + " of " + partCount + " hash record parts");
    }
    Map<String, byte[]> hashes = new HashMap<>();
    Set<String> absentKeys = new HashSet<>();
    Map<String, Set<String>> targetKeys = new TreeMap<>();
    for (HashRecordLocation location : parts) {
      String at = topic + "-" + location.getHashesPartition() + "@" + location.getOffset();
      Optional<ConsumerRecord<byte[], byte[]>> found =
          reader.firstFrom(topic, location.getHashesPartition(), location.getOffset(), timeout);
      if (found.isEmpty() || found.get().offset() != location.getOffset()) {
        long start = startOf(topic, location.getHashesPartition());
        if (start > location.getOffset()) {
          return Loaded.missing(
              "the hash record at "
                  + at
                  + " is gone (deleted: the hashes partition now starts at offset "
                  + start
                  + ")");
        }
      }
      if (found.isEmpty()) {
        return Loaded.missing("no hash record at " + at + " within " + timeout);
      }
      if (found.get().offset() != location.getOffset() || found.get().value() == null) {
        return Loaded.missing(
            "the hash record at " + at + " is gone (compacted or deleted from the hashes topic)");
      }
      HashRecord record;
      try {
        record = records.deserialize(topic, found.get().value());
      } catch (RuntimeException e) {
        return Loaded.missing("the hash record at " + at + " cannot be read: " + e.getMessage());
      }
      String mismatch = mismatch(close, partition, location, hashFunction, record);
      if (mismatch != null) {
        return Loaded.missing("the hash record at " + at + " " + mismatch);
      }
      ChunkHashes pairs;
      try {
        pairs = ChunkHashes.of(record);
      } catch (IllegalArgumentException e) {
        return Loaded.missing(e.getMessage());
      }
      for (int i = 0; i < pairs.size(); i++) {
        if (hashes.put(pairs.key(i), pairs.hash(i)) != null) {
          return Loaded.missing("key '" + pairs.key(i) + "' is in two hash record parts");
        }
      }
      for (String absent : record.getAbsentKeys()) {
        if (!absentKeys.add(absent)) {
          return Loaded.missing("absent key '" + absent + "' is in two hash record parts");
        }
      }
      record
          .getTargetKeys()
          .forEach(
              (name, keys) -> targetKeys.computeIfAbsent(name, n -> new HashSet<>()).addAll(keys));
    }
    String malformed = malformedKeyList(hashes, absentKeys, targetKeys);
    if (malformed != null) {
      return Loaded.missing("the hash records of partition " + partition + " " + malformed);
    }
    return new Loaded(hashes, absentKeys, targetKeys, null);
  }

  /** The first offset the hashes partition still holds; -1 when it cannot be asked. */
  private long startOf(String topic, int partition) {
    try {
      return reader.beginningOffset(topic, partition);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /**
   * Why the key lists of a chunk's records contradict each other: an absent key that is also
   * hashed, or a key a target compares that the records neither hash nor list as absent; {@code
   * null} when they agree.
   */
  private static String malformedKeyList(
      Map<String, byte[]> hashes, Set<String> absentKeys, Map<String, Set<String>> targetKeys) {
    for (String absent : absentKeys) {
      if (hashes.containsKey(absent)) {
        return "list key '" + absent + "' both as hashed and as absent";
      }
    }
    for (Map.Entry<String, Set<String>> entry : targetKeys.entrySet()) {
      for (String key : entry.getValue()) {
        if (!hashes.containsKey(key) && !absentKeys.contains(key)) {
          return "give target '"
              + entry.getKey()
              + "' key '"
              + key
              + "', which is neither hashed nor absent";
        }
      }
    }
    return null;
  }

  private static String mismatch(
      Marker close,
      int partition,
      HashRecordLocation location,
      String hashFunction,
      HashRecord record) {
    boolean same =
        record.getTask().equals(close.getTask())
            && record.getRunId().equals(close.getRunId())
            && record.getTable().equals(close.getTable())
            && record.getChunk() == close.getChunk()
            && record.getTablePartition() == partition
            && record.getPart() == location.getPart()
            && record.getPartCount() == location.getPartCount();
    if (!same) {
      return "belongs to task "
          + record.getTask()
          + " run "
          + record.getRunId()
          + " table "
          + record.getTable()
          + " chunk "
          + record.getChunk()
          + " partition "
          + record.getTablePartition()
          + " part "
          + record.getPart()
          + "/"
          + record.getPartCount()
          + ", not to the chunk of this marker";
    }
    if (record.getPartitionCount() != close.getPartitionCount()) {
      return "was split for "
          + record.getPartitionCount()
          + " partitions, the topic has "
          + close.getPartitionCount();
    }
    if (!Objects.equals(record.getHashFunction(), hashFunction)) {
      return "holds " + record.getHashFunction() + " hashes, the note says " + hashFunction;
    }
    return null;
  }
}
