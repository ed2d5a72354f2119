package io.cdccompare.schemas;

import io.cdccompare.schemas.avro.HashRecord;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;

/**
 * The parallel arrays of a {@link HashRecord} read as (key, hash) pairs: {@code keys[i]} has the
 * hash at bytes {@code [i*hashLength, (i+1)*hashLength)} of {@code hashes}. {@link #of(HashRecord)}
 * refuses a record whose arrays disagree, so a writer's mistake is found where the record is read,
 * not as a wrong verdict. {@link #pack(List, int)} builds the {@code hashes} field for a writer.
 *
 * <p>Immutable view over the record's buffer; the record must not be changed while it is used.
 */
public final class ChunkHashes {
  private static final HexFormat HEX = HexFormat.of();

  private final List<String> keys;
  private final ByteBuffer hashes;
  private final int hashLength;

  private ChunkHashes(List<String> keys, ByteBuffer hashes, int hashLength) {
    this.keys = keys;
    this.hashes = hashes;
    this.hashLength = hashLength;
  }

  /**
   * @throws IllegalArgumentException if {@code hashLength} is not positive or {@code hashes} does
   *     not hold exactly one hash per key, naming the record's task, table, chunk and partition
   */
  public static ChunkHashes of(HashRecord record) {
    int hashLength = record.getHashLength();
    ByteBuffer hashes = record.getHashes().asReadOnlyBuffer();
    int keyCount = record.getKeys().size();
    if (hashLength <= 0 || (long) keyCount * hashLength != hashes.remaining()) {
      throw new IllegalArgumentException(
          "hash record of task '"
              + record.getTask()
              + "', table '"
              + record.getTable()
              + "', chunk "
              + record.getChunk()
              + ", partition "
              + record.getTablePartition()
              + " part "
              + record.getPart()
              + " is malformed: "
              + keyCount
              + " keys need "
              + ((long) keyCount * Math.max(hashLength, 0))
              + " hash bytes at "
              + hashLength
              + " bytes each, found "
              + hashes.remaining());
    }
    return new ChunkHashes(List.copyOf(record.getKeys()), hashes.slice(), hashLength);
  }

  /**
   * The {@code hashes} field for the given hashes, in key order.
   *
   * @throws IllegalArgumentException if a hash is not {@code hashLength} bytes long
   */
  public static ByteBuffer pack(List<byte[]> hashes, int hashLength) {
    if (hashLength <= 0) {
      throw new IllegalArgumentException("hashLength must be positive, was " + hashLength);
    }
    ByteBuffer packed = ByteBuffer.allocate(Math.multiplyExact(hashes.size(), hashLength));
    for (int i = 0; i < hashes.size(); i++) {
      byte[] hash = hashes.get(i);
      if (hash.length != hashLength) {
        throw new IllegalArgumentException(
            "hash " + i + " has " + hash.length + " bytes, expected " + hashLength);
      }
      packed.put(hash);
    }
    return packed.flip();
  }

  /** Number of (key, hash) pairs. */
  public int size() {
    return keys.size();
  }

  public int hashLength() {
    return hashLength;
  }

  /** The canonical key encoding of pair {@code i}. */
  public String key(int i) {
    return keys.get(i);
  }

  /** A copy of the hash of pair {@code i}. */
  public byte[] hash(int i) {
    byte[] hash = new byte[hashLength];
    hashes.get(Math.multiplyExact(checkIndex(i), hashLength), hash);
    return hash;
  }

  /** The hash of pair {@code i} as lowercase hex (the form of docs/design.md, "Row hash"). */
  public String hashHex(int i) {
    return HEX.formatHex(hash(i));
  }

  private int checkIndex(int i) {
    if (i < 0 || i >= keys.size()) {
      throw new IndexOutOfBoundsException("pair " + i + " of " + keys.size());
    }
    return i;
  }
}
