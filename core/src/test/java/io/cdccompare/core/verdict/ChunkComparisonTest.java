package io.cdccompare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.stream.KeyPartitioner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkComparisonTest {

  private static final int PARTITIONS = 3;
  private static final int PARTITION = 1;

  /** Keys "1", "2", … that live in {@code partition}, the first {@code count} of them. */
  private static List<String> keysIn(int partition, int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 1; keys.size() < count; i++) {
      String key = Integer.toString(i);
      if (KeyPartitioner.partition(key, PARTITIONS) == partition) {
        keys.add(key);
      }
    }
    return keys;
  }

  private static byte[] hash(int value) {
    return new byte[] {(byte) value, 7, 7, 7};
  }

  private static Map<String, byte[]> chunkOf(List<String> keys) {
    Map<String, byte[]> chunk = new LinkedHashMap<>();
    for (String key : keys) {
      chunk.put(key, hash(Integer.parseInt(key)));
    }
    return chunk;
  }

  @Test
  void equalHashesMatch() {
    // Given a chunk of three keys and the same three rows on the target
    List<String> keys = keysIn(PARTITION, 3);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);

    // When the target rows are fed
    keys.forEach(key -> comparison.acceptTarget(key, hash(Integer.parseInt(key))));

    // Then every row matched
    assertThat(comparison.verdict())
        .isEqualTo(ChunkVerdict.of(3, List.of(), List.of(), List.of(), List.of()));
  }

  @Test
  void aDifferentHashFails() {
    // Given a chunk of two keys
    List<String> keys = keysIn(PARTITION, 2);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);

    // When the second row's hash differs on the target
    comparison.acceptTarget(keys.get(0), hash(Integer.parseInt(keys.get(0))));
    comparison.acceptTarget(keys.get(1), hash(0));

    // Then it failed, with its key
    ChunkVerdict verdict = comparison.verdict();
    assertThat(verdict.matched()).isEqualTo(1);
    assertThat(verdict.failedKeys()).containsExactly(keys.get(1));
  }

  @Test
  void aChunkKeyNeverReadIsMissed() {
    // Given a chunk of three keys
    List<String> keys = keysIn(PARTITION, 3);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);

    // When only the first and last are read on the target
    comparison.acceptTarget(keys.get(2), hash(Integer.parseInt(keys.get(2))));
    comparison.acceptTarget(keys.get(0), hash(Integer.parseInt(keys.get(0))));

    // Then the middle one is missed
    assertThat(comparison.unseenChunkKeys()).containsExactly(keys.get(1));
    assertThat(comparison.verdict())
        .isEqualTo(ChunkVerdict.of(2, List.of(), List.of(keys.get(1)), List.of(), List.of()));
  }

  @Test
  void aTargetKeyOfThisPartitionOutsideTheChunkIsExtra() {
    // Given a chunk of one key, and a target with one more key of the same partition
    List<String> keys = keysIn(PARTITION, 2);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys.subList(0, 1)), Set.of(), PARTITION, PARTITIONS);

    // When both target rows are fed
    comparison.acceptTarget(keys.get(0), hash(Integer.parseInt(keys.get(0))));
    comparison.acceptTarget(keys.get(1), hash(1));

    // Then the second is extra
    assertThat(comparison.verdict())
        .isEqualTo(ChunkVerdict.of(1, List.of(), List.of(), List.of(keys.get(1)), List.of()));
  }

  @Test
  void aTargetKeyOfAnotherPartitionIsNotCounted() {
    // Given a chunk of one key
    List<String> keys = keysIn(PARTITION, 1);
    String elsewhere = keysIn(PARTITION + 1, 1).get(0);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);

    // When the target also holds a row of another partition inside the range
    comparison.acceptTarget(keys.get(0), hash(Integer.parseInt(keys.get(0))));
    comparison.acceptTarget(elsewhere, hash(1));

    // Then that row is left to its own partition's verifier
    assertThat(comparison.verdict())
        .isEqualTo(ChunkVerdict.of(1, List.of(), List.of(), List.of(), List.of()));
  }

  @Test
  void inFlightKeysAreInFlightInsteadOfFailedMissedOrExtra() {
    // Given a chunk of four keys, one more target key, and every difference in flight
    List<String> keys = keysIn(PARTITION, 5);
    String differing = keys.get(0);
    String absent = keys.get(1);
    String unchanged = keys.get(2);
    String matching = keys.get(3);
    String targetOnly = keys.get(4);
    ChunkComparison comparison =
        new ChunkComparison(
            chunkOf(keys.subList(0, 4)),
            Set.of(differing, absent, matching, targetOnly),
            PARTITION,
            PARTITIONS);

    // When the target has a different hash for one, lacks another and holds one more
    comparison.acceptTarget(differing, hash(0));
    comparison.acceptTarget(unchanged, hash(Integer.parseInt(unchanged)));
    comparison.acceptTarget(matching, hash(Integer.parseInt(matching)));
    comparison.acceptTarget(targetOnly, hash(0));

    // Then all four in-flight keys are in flight, whatever their hashes, and only one matched
    assertThat(comparison.verdict())
        .isEqualTo(
            ChunkVerdict.of(
                1,
                List.of(),
                List.of(),
                List.of(),
                List.of(differing, absent, matching, targetOnly)));
  }

  @Test
  void anInFlightKeyNeitherInTheChunkNorOnTheTargetIsNotCounted() {
    // Given an in-flight key that was compared nowhere
    List<String> keys = keysIn(PARTITION, 2);
    ChunkComparison comparison =
        new ChunkComparison(
            chunkOf(keys.subList(0, 1)), Set.of(keys.get(1)), PARTITION, PARTITIONS);

    // When the chunk's one row is read
    comparison.acceptTarget(keys.get(0), hash(Integer.parseInt(keys.get(0))));

    // Then only that row counts
    assertThat(comparison.verdict().compared()).isEqualTo(1);
    assertThat(comparison.verdict().inFlight()).isZero();
  }

  @Test
  void membershipDoesNotDependOnTheOrderRowsAreRead() {
    // Given a chunk of twenty keys
    List<String> keys = keysIn(PARTITION, 20);
    ChunkComparison forward = new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);
    ChunkComparison backward = new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);

    // When the target rows come in opposite orders, one of them with another hash
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      forward.acceptTarget(key, hash(i == 5 ? 0 : Integer.parseInt(key)));
      String reversed = keys.get(keys.size() - 1 - i);
      backward.acceptTarget(
          reversed, hash(reversed.equals(keys.get(5)) ? 0 : Integer.parseInt(reversed)));
    }

    // Then both give the same verdict
    assertThat(forward.verdict()).isEqualTo(backward.verdict());
    assertThat(forward.verdict().failedKeys()).containsExactly(keys.get(5));
  }

  @Test
  void aTargetKeyReadTwiceIsRefused() {
    // Given a chunk whose one row was read
    List<String> keys = keysIn(PARTITION, 1);
    ChunkComparison comparison =
        new ChunkComparison(chunkOf(keys), Set.of(), PARTITION, PARTITIONS);
    comparison.acceptTarget(keys.get(0), hash(1));

    // When the same key is read again
    // Then the comparison refuses it: the target key is not unique
    assertThatThrownBy(() -> comparison.acceptTarget(keys.get(0), hash(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'" + keys.get(0) + "'");
  }

  @Test
  void aChunkKeyOfAnotherPartitionIsRefused() {
    // Given hashes that hold a key of another partition
    String elsewhere = keysIn(PARTITION + 1, 1).get(0);

    // When a comparison for this partition is made of them
    // Then it is refused, naming the key and both partitions
    assertThatThrownBy(
            () -> new ChunkComparison(chunkOf(List.of(elsewhere)), Set.of(), PARTITION, PARTITIONS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + elsewhere + "' lives in partition " + (PARTITION + 1));
  }

  @Test
  void thePartitionMustBeOneOfTheTopics() {
    // Given a topic of three partitions
    // When a comparison for partition 3 is made
    // Then it is refused
    assertThatThrownBy(() -> new ChunkComparison(Map.of(), Set.of(), 3, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anEmptyChunkWithNoTargetRowsHasAnEmptyVerdict() {
    // Given a chunk that compared nothing in this partition
    ChunkComparison comparison = new ChunkComparison(Map.of(), Set.of("1"), PARTITION, PARTITIONS);

    // When no target row is fed
    // Then the verdict is empty
    assertThat(comparison.verdict()).isEqualTo(ChunkVerdict.empty());
  }

  @Test
  void onlyChunkKeysAreHashedAndOnlyKeysOfItsPartitionCount() {
    // Given a chunk of two keys of partition 1, one of them in flight
    List<String> mine = keysIn(PARTITION, 3);
    String other = keysIn(0, 1).get(0);
    ChunkComparison comparison =
        new ChunkComparison(
            chunkOf(mine.subList(0, 2)), Set.of(mine.get(1)), PARTITION, PARTITIONS);
    List<String> hashed = new ArrayList<>();

    // When target rows are offered with hashes computed on demand
    boolean chunkKey =
        comparison.accept(
            mine.get(0),
            () -> {
              hashed.add(mine.get(0));
              return hash(Integer.parseInt(mine.get(0)));
            });
    boolean inFlightKey = comparison.accept(mine.get(1), () -> wronglyHashed(hashed, mine.get(1)));
    boolean extraKey = comparison.accept(mine.get(2), () -> wronglyHashed(hashed, mine.get(2)));
    boolean otherPartition = comparison.accept(other, () -> wronglyHashed(hashed, other));

    // Then the rows of partition 1 count and a key of partition 0 does not (its verifier counts
    // it); only the compared chunk key was hashed (an extra or in-flight row needs no hash)
    assertThat(List.of(chunkKey, inFlightKey, extraKey, otherPartition))
        .containsExactly(true, true, true, false);
    assertThat(hashed).containsExactly(mine.get(0));
    assertThat(comparison.verdict())
        .isEqualTo(
            ChunkVerdict.of(1, List.of(), List.of(), List.of(mine.get(2)), List.of(mine.get(1))));
  }

  private static byte[] wronglyHashed(List<String> hashed, String key) {
    hashed.add(key);
    return new byte[] {0};
  }
}
