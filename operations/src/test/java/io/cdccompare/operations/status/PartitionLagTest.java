package io.cdccompare.operations.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PartitionLagTest {

  @Test
  void theLagIsTheEndOffsetMinusTheOffsetAfterTheCheckpoint() {
    // Given a partition holding offsets 0..9 (end offset 10), applied up to offset 3 inclusive
    // When
    PartitionLag lag = PartitionLag.of(3L, 0, 10);

    // Then offsets 4..9 are not applied: six records, the oldest at 4
    assertThat(lag).isEqualTo(new PartitionLag(4, 4, 6, null));
  }

  @Test
  void aCheckpointOnTheLastRecordIsNoLag() {
    // Given / When the checkpoint is the last offset, end - 1
    PartitionLag lag = PartitionLag.of(9L, 0, 10);

    // Then
    assertThat(lag.records()).isZero();
    assertThat(lag.problem()).isNull();
  }

  @Test
  void withoutACheckpointEveryRecordStillInThePartitionIsLag() {
    // Given retention deleted offsets 0..1 and the target has applied nothing
    // When
    PartitionLag lag = PartitionLag.of(null, 2, 10);

    // Then the verifier starts at the start offset: 8 records
    assertThat(lag).isEqualTo(new PartitionLag(2, 2, 8, null));
    assertThat(PartitionLag.of(null, 0, 0).records()).isZero();
  }

  @Test
  void recordsDeletedBeforeTheyWereAppliedAreAResyncNamingThem() {
    // Given applied up to 3, but the partition now starts at 6
    // When
    PartitionLag lag = PartitionLag.of(3L, 6, 10);

    // Then 4..9 are unapplied offsets, the oldest record still there is 6, and 4..5 are lost
    assertThat(lag.records()).isEqualTo(6);
    assertThat(lag.oldest()).isEqualTo(6);
    assertThat(lag.problem()).startsWith("RESYNC_NEEDED").contains("records 4..5");
  }

  @Test
  void aCheckpointPastTheEndIsAResyncAndNoNegativeLag() {
    // Given a topic recreated with fewer records than the checkpoint covers
    // When
    PartitionLag lag = PartitionLag.of(12L, 0, 10);

    // Then
    assertThat(lag.records()).isZero();
    assertThat(lag.problem())
        .startsWith("RESYNC_NEEDED")
        .contains("checkpoint 12", "end offset 10");
  }

  @Test
  void offsetsOutOfOrderAreRefused() {
    assertThatThrownBy(() -> PartitionLag.of(null, 5, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("start 5 end 4");
  }

  @Test
  void theAgeIsNowMinusTheOldestUnappliedRecordsTimestamp() {
    // Given
    Instant now = Instant.parse("2026-01-01T12:00:00Z");
    Instant oldest = now.minusMillis(61_500);

    // When / Then
    assertThat(PartitionLag.age(3, oldest, now)).isEqualTo(Duration.ofMillis(61_500));
    assertThat(PartitionLag.age(0, oldest, now)).as("no lag, no age").isZero();
    assertThat(PartitionLag.age(3, now.plusSeconds(5), now)).as("clock skew").isZero();
  }
}
