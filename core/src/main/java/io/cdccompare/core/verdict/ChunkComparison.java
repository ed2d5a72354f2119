package io.cdccompare.core.verdict;

import io.cdccompare.core.stream.KeyPartitioner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges one chunk's source hashes for one partition of the table topic with the target rows read
 * inside the chunk's compared key range, and decides each row's outcome (docs/design.md, "Outcomes
 * of a chunk, per target"):
 *
 * <ul>
 *   <li>a chunk key read on the target is <b>matched</b> if the hashes are equal, else
 *       <b>failed</b>;
 *   <li>a chunk key never read on the target is <b>missed</b>;
 *   <li>a target key that is not a chunk key but lives in this partition ({@link
 *       KeyPartitioner#partition}) is <b>extra</b>; target keys of other partitions belong to other
 *       verifiers and are not counted;
 *   <li>any of these keys that is in the in-flight set (changed between the chunk's OPEN and CLOSE
 *       markers) is <b>in-flight</b> instead, whatever its hashes: neither matched nor failed, to
 *       be checked again.
 * </ul>
 *
 * <p>Membership is decided by the chunk's key list alone, never by the order in which the target
 * returns rows: the caller may feed rows in any order, including rows it looked up by key. A target
 * key fed twice is refused (the key columns are not unique on the target). Memory follows the chunk
 * (its keys and hashes), not the table.
 *
 * <p>Not thread-safe: one instance per chunk and partition, fed by one reader.
 */
public final class ChunkComparison {

  /** The target side of one row, asked for only when the row counts in this comparison. */
  @FunctionalInterface
  public interface TargetHash<E extends Exception> {
    byte[] get() throws E;
  }

  /** A chunk key: its source hash and whether a target row was fed for it. */
  private static final class Slot {
    final byte[] hash;
    boolean seen;

    Slot(byte[] hash) {
      this.hash = hash;
    }
  }

  private final Map<String, Slot> chunk;
  private final Set<String> inFlightKeys;
  private final int partition;
  private final int partitionCount;
  private final Set<String> seenOtherKeys = new HashSet<>();
  private int seenChunkKeys;
  private long matched;
  private final List<String> failed = new ArrayList<>();
  private final List<String> extra = new ArrayList<>();
  private final List<String> inFlight = new ArrayList<>();

  /**
   * @param chunkHashes the chunk's compared rows of this partition: encoded key → row hash bytes
   * @param inFlightKeys encoded keys changed in this partition between the chunk's markers
   * @param partition the partition of the table topic this comparison covers
   * @param partitionCount the table topic's partition count
   * @throws IllegalArgumentException if a chunk key does not live in {@code partition} (the hashes
   *     were split for another partition or partition count)
   */
  public ChunkComparison(
      Map<String, byte[]> chunkHashes,
      Set<String> inFlightKeys,
      int partition,
      int partitionCount) {
    if (partitionCount <= 0 || partition < 0 || partition >= partitionCount) {
      throw new IllegalArgumentException(
          "partition " + partition + " is not one of " + partitionCount + " partitions");
    }
    this.chunk = new HashMap<>(Math.max(16, chunkHashes.size() * 4 / 3 + 1));
    this.inFlightKeys = Set.copyOf(inFlightKeys);
    this.partition = partition;
    this.partitionCount = partitionCount;
    for (Map.Entry<String, byte[]> entry : chunkHashes.entrySet()) {
      if (entry.getValue() == null) {
        throw new IllegalArgumentException("chunk key '" + entry.getKey() + "' has no hash");
      }
      KeyPartitioner.requireIn("chunk key", entry.getKey(), partition, partitionCount);
      chunk.put(entry.getKey(), new Slot(entry.getValue()));
    }
  }

  /**
   * One target row: read inside the compared key range, or looked up by a chunk key.
   *
   * @throws IllegalStateException if this key was fed before
   */
  public void acceptTarget(String key, byte[] hash) {
    accept(key, () -> hash);
  }

  /**
   * One target row, whose hash is computed only when it is needed: for a chunk key that is not in
   * flight. A key that is neither a chunk key nor a key of this partition does not count here (the
   * other partitions' verifiers count it) and is not hashed; nor is an extra or in-flight row.
   *
   * @return whether the row counts in this comparison
   * @throws IllegalStateException if this key was fed before
   */
  public <E extends Exception> boolean accept(String key, TargetHash<E> hash) throws E {
    Slot slot = chunk.get(key);
    if (slot != null) {
      if (slot.seen) {
        throw duplicate(key);
      }
      slot.seen = true;
      seenChunkKeys++;
      if (inFlightKeys.contains(key)) {
        inFlight.add(key);
      } else if (Arrays.equals(slot.hash, hash.get())) {
        matched++;
      } else {
        failed.add(key);
      }
      return true;
    }
    if (KeyPartitioner.partition(key, partitionCount) != partition) {
      return false;
    }
    if (!seenOtherKeys.add(key)) {
      throw duplicate(key);
    }
    if (inFlightKeys.contains(key)) {
      inFlight.add(key);
    } else {
      extra.add(key);
    }
    return true;
  }

  /** The chunk keys no target row was fed for yet, in no particular order. */
  public Set<String> unseenChunkKeys() {
    if (seenChunkKeys == chunk.size()) {
      return Set.of();
    }
    Set<String> unseen = new LinkedHashSet<>();
    chunk.forEach(
        (key, slot) -> {
          if (!slot.seen) {
            unseen.add(key);
          }
        });
    return unseen;
  }

  /** The verdict of the rows fed so far: every chunk key not fed is missed (or in-flight). */
  public ChunkVerdict verdict() {
    List<String> missed = new ArrayList<>();
    List<String> inFlightAll = new ArrayList<>(inFlight);
    for (String key : unseenChunkKeys()) {
      if (inFlightKeys.contains(key)) {
        inFlightAll.add(key);
      } else {
        missed.add(key);
      }
    }
    return ChunkVerdict.of(matched, failed, missed, extra, inFlightAll);
  }

  private static IllegalStateException duplicate(String key) {
    return new IllegalStateException(
        "target key '" + key + "' was read twice: the key columns are not unique on the target");
  }
}
