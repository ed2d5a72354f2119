package io.cdccompare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionVerdictTest {

  private static final VerdictId ID = new VerdictId("apply-pg", "nightly", "run-1", "s.t", 3, 0);

  @Test
  void verifiedAtIsKeptToTheMicrosecond() {
    // Given a time with nanoseconds
    Instant at = Instant.parse("2024-05-31T10:15:30.123456789Z");

    // When a verdict is made at that time
    PartitionVerdict verdict = PartitionVerdict.verified(ID, 12, ChunkVerdict.empty(), at);

    // Then the time is truncated to what the stores keep
    assertThat(verdict.verifiedAt()).isEqualTo(Instant.parse("2024-05-31T10:15:30.123456Z"));
  }

  @Test
  void anUnverifiableVerdictNeedsAnError() {
    // Given no error
    // When an UNVERIFIABLE verdict is made
    // Then it is refused
    assertThatThrownBy(
            () ->
                new PartitionVerdict(
                    ID, 12, ChunkState.UNVERIFIABLE, ChunkVerdict.empty(), null, Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs an error");
  }

  @Test
  void anUnverifiableVerdictCountsNoRow() {
    // Given counts
    ChunkVerdict counts = ChunkVerdict.of(5, List.of(), List.of(), List.of(), List.of());

    // When a SCHEMA_DRIFT verdict is made with them
    // Then it is refused
    assertThatThrownBy(
            () ->
                new PartitionVerdict(
                    ID, 12, ChunkState.SCHEMA_DRIFT, counts, "column c missing", Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counts no row");
  }

  @Test
  void aVerifiedVerdictHasNoError() {
    // Given an error
    // When a VERIFIED verdict is made with it
    // Then it is refused
    assertThatThrownBy(
            () ->
                new PartitionVerdict(
                    ID, 12, ChunkState.VERIFIED, ChunkVerdict.empty(), "boom", Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anIdNamesEveryPart() {
    // Given an empty task name
    // When an id is made
    // Then it is refused, naming the part
    assertThatThrownBy(() -> new VerdictId("app", "", "run", "s.t", 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task");
  }
}
