package io.cdccompare.core.stream;

import java.nio.charset.StandardCharsets;

/**
 * The one partition function of cdc-compare: where a row's key lives in its table's topic. The
 * capture routes a change there and the compare producer splits a chunk's hashes the same way, so a
 * verifier finds in its partition exactly the hashes of the keys whose changes it applied.
 *
 * <p>It is Kafka's default key partitioning (murmur2 of the serialized key, made positive, modulo
 * the partition count) applied to the UTF-8 bytes of the {@linkplain
 * io.cdccompare.core.key.KeyCodec canonical key encoding}, so any plain Kafka producer keyed by the
 * same text agrees with it. It is written here because core may not depend on Kafka.
 */
public final class KeyPartitioner {
  private KeyPartitioner() {}

  /** The partition of an encoded key in a topic of {@code partitions} partitions. */
  /**
   * Refuses a key that does not live in {@code partition} of {@code partitions}: records split for
   * another partition or partition count.
   *
   * @param role what the key is, for the message ({@code chunk key}, {@code absent key})
   * @throws IllegalArgumentException naming the key, its partition and the one expected
   */
  public static void requireIn(String role, String encodedKey, int partition, int partitions) {
    int home = partition(encodedKey, partitions);
    if (home != partition) {
      throw new IllegalArgumentException(
          role
              + " '"
              + encodedKey
              + "' lives in partition "
              + home
              + " of "
              + partitions
              + ", not in "
              + partition);
    }
  }

  public static int partition(String encodedKey, int partitions) {
    if (partitions <= 0) {
      throw new IllegalArgumentException("partitions must be positive, was " + partitions);
    }
    return partitionOfUtf8(encodedKey.getBytes(StandardCharsets.UTF_8), partitions);
  }

  /** The partition of an encoded key given as its UTF-8 bytes (for callers that have them). */
  public static int partitionOfUtf8(byte[] encodedKey, int partitions) {
    if (partitions <= 0) {
      throw new IllegalArgumentException("partitions must be positive, was " + partitions);
    }
    return (murmur2(encodedKey) & 0x7fffffff) % partitions;
  }

  /** 32-bit murmur2 with Kafka's seed, as Kafka's producer computes it for record keys. */
  static int murmur2(byte[] data) {
    int length = data.length;
    int seed = 0x9747b28c;
    final int m = 0x5bd1e995;
    final int r = 24;
    int h = seed ^ length;
    int length4 = length / 4;
    for (int i = 0; i < length4; i++) {
      int i4 = i * 4;
      int k =
          (data[i4] & 0xff)
              + ((data[i4 + 1] & 0xff) << 8)
              + ((data[i4 + 2] & 0xff) << 16)
              + ((data[i4 + 3] & 0xff) << 24);
      k *= m;
      k ^= k >>> r;
      k *= m;
      h *= m;
      h ^= k;
    }
    int tail = length4 * 4;
    switch (length % 4) {
      case 3:
        h ^= (data[tail + 2] & 0xff) << 16;
      // fall through
      case 2:
        h ^= (data[tail + 1] & 0xff) << 8;
      // fall through
      case 1:
        h ^= data[tail] & 0xff;
        h *= m;
      // fall through
      default:
        break;
    }
    h ^= h >>> 13;
    h *= m;
    h ^= h >>> 15;
    return h;
  }
}
