package io.cdccompare.verifier.verify;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.jdbc.sql.TableRef;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One chunk to verify in one partition of the table topic, on one target table: a range chunk (a
 * FULL run's, read over its compared key range) or a key-list chunk (a RECHECK or INCREMENTAL
 * run's, docs/design.md "Key-list chunks": exactly its keys, each looked up by key, no range).
 *
 * @param table the target table
 * @param plan the chunk's hash plan; the target reads {@code HashedColumn.targetName()}
 * @param keyColumns the target's key columns, in key order
 * @param keyCodec the codec of the encoded keys
 * @param chunkHashes the chunk's compared rows of this partition: encoded key → row hash bytes;
 *     handed over (not copied), the caller must not change it
 * @param partition the partition of the table topic
 * @param partitionCount the table topic's partition count
 * @param range the compared key range (over all partitions): every target row in it is the chunk's,
 *     an extra row when its key is not a chunk key; {@code null} when the chunk compared no row and
 *     no range, and always for a key-list chunk
 * @param inFlightKeys keys changed in this partition between the chunk's OPEN and CLOSE markers
 * @param absentKeys key-list chunks only: keys of this partition the chunk compares although the
 *     source held no row with them; a target row with such a key is extra. Never a chunk key
 * @param keyList whether this is a key-list chunk: every chunk key and absent key is looked up by
 *     key, no range is read
 */
public record ChunkCheck(
    TableRef table,
    HashPlan plan,
    List<String> keyColumns,
    KeyCodec keyCodec,
    Map<String, byte[]> chunkHashes,
    int partition,
    int partitionCount,
    ComparedRange range,
    Set<String> inFlightKeys,
    Set<String> absentKeys,
    boolean keyList) {

  public ChunkCheck {
    if (table == null || plan == null || keyCodec == null) {
      throw new IllegalArgumentException("a chunk check needs a table, a hash plan and a codec");
    }
    keyColumns = List.copyOf(keyColumns);
    chunkHashes = Collections.unmodifiableMap(chunkHashes); // handed over: no copy per chunk
    inFlightKeys = Set.copyOf(inFlightKeys);
    absentKeys = Set.copyOf(absentKeys);
    if (keyList) {
      checkKeyList(table, chunkHashes, range, absentKeys, partition, partitionCount);
    } else {
      if (range == null && !chunkHashes.isEmpty()) {
        throw new IllegalArgumentException(
            "chunk of table " + table.table() + " has hashes but no compared key range");
      }
      if (!absentKeys.isEmpty()) {
        throw new IllegalArgumentException(
            "chunk of table "
                + table.table()
                + " compares a key range but lists absent keys: only a key-list chunk has them");
      }
    }
  }

  /** A range chunk (a FULL run's): no absent keys. */
  public ChunkCheck(
      TableRef table,
      HashPlan plan,
      List<String> keyColumns,
      KeyCodec keyCodec,
      Map<String, byte[]> chunkHashes,
      int partition,
      int partitionCount,
      ComparedRange range,
      Set<String> inFlightKeys) {
    this(
        table,
        plan,
        keyColumns,
        keyCodec,
        chunkHashes,
        partition,
        partitionCount,
        range,
        inFlightKeys,
        Set.of(),
        false);
  }

  /**
   * A key-list chunk: its hashed keys and its absent keys of this partition (those this target
   * compares), looked up by key; no range.
   */
  public static ChunkCheck keyList(
      TableRef table,
      HashPlan plan,
      List<String> keyColumns,
      KeyCodec keyCodec,
      Map<String, byte[]> chunkHashes,
      Set<String> absentKeys,
      int partition,
      int partitionCount,
      Set<String> inFlightKeys) {
    return new ChunkCheck(
        table,
        plan,
        keyColumns,
        keyCodec,
        chunkHashes,
        partition,
        partitionCount,
        null,
        inFlightKeys,
        absentKeys,
        true);
  }

  /** True when the chunk compares a key range. */
  public boolean hasRange() {
    return range != null;
  }

  private static void checkKeyList(
      TableRef table,
      Map<String, byte[]> chunkHashes,
      ComparedRange range,
      Set<String> absentKeys,
      int partition,
      int partitionCount) {
    if (range != null) {
      throw new IllegalArgumentException(
          "key-list chunk of table " + table.table() + " has a compared key range: it reads none");
    }
    if (partitionCount <= 0 || partition < 0 || partition >= partitionCount) {
      throw new IllegalArgumentException(
          "partition " + partition + " is not one of " + partitionCount + " partitions");
    }
    for (String key : absentKeys) {
      if (chunkHashes.containsKey(key)) {
        throw new IllegalArgumentException(
            "key '" + key + "' of table " + table.table() + " is both hashed and absent");
      }
      KeyPartitioner.requireIn("absent key", key, partition, partitionCount);
    }
  }
}
