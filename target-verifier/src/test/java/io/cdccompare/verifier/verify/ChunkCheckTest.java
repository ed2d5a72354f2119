package io.cdccompare.verifier.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.verifier.sql.TableRef;
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
  void aChunkWithoutRangeComparedNothing() {
    // Given no hashes and no range
    // When the check is made
    // Then it has no range to read
    assertThat(check(Map.of(), null).hasRange()).isFalse();
    assertThat(check(Map.of(), ComparedRange.between("1", "9")).hasRange()).isTrue();
    assertThat(check(Map.of(), ComparedRange.EVERYTHING).hasRange()).isTrue();
  }
}
