package io.cdccompare.verifier.verify;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.verifier.sql.TableRef;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One chunk to verify in one partition of the table topic, on one target table.
 *
 * @param table the target table
 * @param plan the chunk's hash plan; the target reads {@code HashedColumn.targetName()}
 * @param keyColumns the target's key columns, in key order
 * @param keyCodec the codec of the encoded keys
 * @param chunkHashes the chunk's compared rows of this partition: encoded key → row hash bytes
 * @param partition the partition of the table topic
 * @param partitionCount the table topic's partition count
 * @param firstComparedKey lower bound of the compared key range (over all partitions); {@code null}
 *     with {@code lastKey} when the chunk compared no row
 * @param lastKey upper bound of the compared key range
 * @param inFlightKeys keys changed in this partition between the chunk's OPEN and CLOSE markers
 */
public record ChunkCheck(
    TableRef table,
    HashPlan plan,
    List<String> keyColumns,
    KeyCodec keyCodec,
    Map<String, byte[]> chunkHashes,
    int partition,
    int partitionCount,
    String firstComparedKey,
    String lastKey,
    Set<String> inFlightKeys) {

  public ChunkCheck {
    if (table == null || plan == null || keyCodec == null) {
      throw new IllegalArgumentException("a chunk check needs a table, a hash plan and a codec");
    }
    keyColumns = List.copyOf(keyColumns);
    chunkHashes = Map.copyOf(chunkHashes);
    inFlightKeys = Set.copyOf(inFlightKeys);
    if ((firstComparedKey == null) != (lastKey == null)) {
      throw new IllegalArgumentException("a compared key range has both bounds or none");
    }
    if (firstComparedKey == null && !chunkHashes.isEmpty()) {
      throw new IllegalArgumentException(
          "chunk of table " + table.table() + " has hashes but no compared key range");
    }
  }

  /** True when the chunk compared rows: the key range is given. */
  public boolean hasRange() {
    return firstComparedKey != null;
  }
}
