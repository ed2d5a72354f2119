package io.cdccompare.verifier.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.jdbc.sql.TableRef;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkCheckTest {

  private static final HashPlan PLAN =
      new HashPlan("t", List.of(HashedColumn.of("id", LogicalType.BIGINT)));
  private static final KeyCodec CODEC = new KeyCodec(List.of(LogicalType.BIGINT));

  private static ChunkCheck check(Map<String, byte[]> hashes, ComparedRange range) {
    return new ChunkCheck(
        TableRef.of("t"), PLAN, List.of("id"), CODEC, hashes, 0, 1, range, Set.of());
  }

  @Test
  void hashesWithoutARangeAreRefused() {
    // Given hashes but no compared key range
    // When the check is made
    // Then it is refused: every key would wrongly be missed
    assertThatThrownBy(() -> check(Map.of("1", new byte[16]), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no compared key range");
  }

  @Test
  void aKeyListCheckHasNoRangeAndMayHoldHashesAndAbsentKeys() {
    // Given hashed keys and absent keys of the only partition
    // When a key-list check is made
    ChunkCheck check =
        ChunkCheck.keyList(
            TableRef.of("t"),
            PLAN,
            List.of("id"),
            CODEC,
            Map.of("1", new byte[16]),
            Set.of("2"),
            0,
            1,
            Set.of());

    // Then it is a key-list check without a range, holding both kinds of keys
    assertThat(check.keyList()).isTrue();
    assertThat(check.hasRange()).isFalse();
    assertThat(check.chunkHashes()).containsOnlyKeys("1");
    assertThat(check.absentKeys()).containsExactly("2");
  }

  @Test
  void aKeyListCheckWithARangeIsRefused() {
    // Given a key-list check that also names a range
    // When it is made
    // Then it is refused: a key-list chunk reads no range
    assertThatThrownBy(
            () ->
                new ChunkCheck(
                    TableRef.of("t"),
                    PLAN,
                    List.of("id"),
                    CODEC,
                    Map.of("1", new byte[16]),
                    0,
                    1,
                    ComparedRange.between("1", "9"),
                    Set.of(),
                    Set.of(),
                    true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key-list chunk")
        .hasMessageContaining("reads none");
  }

  @Test
  void aKeyBothHashedAndAbsentIsRefused() {
    // Given key 1 hashed and absent at once
    // When the key-list check is made
    // Then it is refused naming the key
    assertThatThrownBy(
            () ->
                ChunkCheck.keyList(
                    TableRef.of("t"),
                    PLAN,
                    List.of("id"),
                    CODEC,
                    Map.of("1", new byte[16]),
                    Set.of("1"),
                    0,
                    1,
                    Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'1'")
        .hasMessageContaining("both hashed and absent");
  }

  @Test
  void anAbsentKeyOfAnotherPartitionIsRefused() {
    // Given an absent key that lives in partition 0 or 1 of 2, checked in the other one
    int home = io.cdccompare.core.stream.KeyPartitioner.partition("7", 2);

    // When the key-list check is made for the other partition
    // Then it is refused: the target row would be counted nowhere
    assertThatThrownBy(
            () ->
                ChunkCheck.keyList(
                    TableRef.of("t"),
                    PLAN,
                    List.of("id"),
                    CODEC,
                    Map.of(),
                    Set.of("7"),
                    1 - home,
                    2,
                    Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absent key '7' lives in partition " + home);
  }

  @Test
  void aRangeCheckWithAbsentKeysIsRefused() {
    // Given a range chunk (FULL) that lists an absent key
    // When it is made
    // Then it is refused: a range finds extra rows by itself
    assertThatThrownBy(
            () ->
                new ChunkCheck(
                    TableRef.of("t"),
                    PLAN,
                    List.of("id"),
                    CODEC,
                    Map.of(),
                    0,
                    1,
                    ComparedRange.EVERYTHING,
                    Set.of(),
                    Set.of("2"),
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only a key-list chunk has them");
  }

  @Test
  void aChunkWithoutRangeComparedNothing() {
    // Given no hashes and no range
    // When the check is made
    // Then it has no range to read
    assertThat(check(Map.of(), null).hasRange()).isFalse();
    assertThat(check(Map.of(), ComparedRange.between("1", "9")).hasRange()).isTrue();
    assertThat(check(Map.of(), ComparedRange.EVERYTHING).hasRange()).isTrue();
  }
}
