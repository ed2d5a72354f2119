package io.cdccompare.verifier.verify;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.verifier.sql.TableRef;
import java.util.Collections;
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
 * @param chunkHashes the chunk's compared rows of this partition: encoded key → row hash bytes;
 *     handed over (not copied), the caller must not change it
 * @param partition the partition of the table topic
 * @param partitionCount the table topic's partition count
 * @param range the compared key range (over all partitions): every target row in it is the chunk's,
 *     an extra row when its key is not a chunk key; {@code null} when the chunk compared no row and
 *     no range
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
    ComparedRange range,
    Set<String> inFlightKeys) {

  public ChunkCheck {
    if (table == null || plan == null || keyCodec == null) {
      throw new IllegalArgumentException("a chunk check needs a table, a hash plan and a codec");
    }
    keyColumns = List.copyOf(keyColumns);
    chunkHashes = Collections.unmodifiableMap(chunkHashes); // handed over: no copy per chunk
    inFlightKeys = Set.copyOf(inFlightKeys);
    if (range == null && !chunkHashes.isEmpty()) {
      throw new IllegalArgumentException(
          "chunk of table " + table.table() + " has hashes but no compared key range");
    }
  }

  /** True when the chunk compares a key range. */
  public boolean hasRange() {
    return range != null;
  }
}
