package io.cdccompare.core.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChunkPacingTest {

  @Test
  void rowRateLimitRestsUntilTheRowsFitTheRate() {
    // Given at most 1 000 rows/s
    ChunkPacing pacing = new ChunkPacing(1_000, Duration.ZERO);

    // When 5 000 rows were read in 2 s
    Duration pause = pacing.pauseAfterChunk(5_000, Duration.ofSeconds(2), Duration.ofMillis(400));

    // Then it rests 3 s, so that 5 000 rows took 5 s
    assertThat(pause).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void slowEnoughReadingDoesNotRest() {
    // Given at most 1 000 rows/s
    ChunkPacing pacing = new ChunkPacing(1_000, Duration.ZERO);

    // When 5 000 rows took 6 s
    // Then there is no pause
    assertThat(pacing.pauseAfterChunk(5_000, Duration.ofSeconds(6), Duration.ofSeconds(1)))
        .isZero();
  }

  @Test
  void chunkTimeRestsForTheRestOfTheChunk() {
    // Given chunks of at least 500 ms
    ChunkPacing pacing = new ChunkPacing(0, Duration.ofMillis(500));

    // When a chunk took 120 ms
    // Then it rests 380 ms
    assertThat(pacing.pauseAfterChunk(10_000, Duration.ofSeconds(9), Duration.ofMillis(120)))
        .isEqualTo(Duration.ofMillis(380));
  }

  @Test
  void theLongerOfBothLimitsWins() {
    // Given both limits
    ChunkPacing pacing = new ChunkPacing(10_000, Duration.ofMillis(200));

    // When 10 000 rows took 100 ms in one chunk
    Duration pause = pacing.pauseAfterChunk(10_000, Duration.ofMillis(100), Duration.ofMillis(100));

    // Then the row rate asks for the longer rest (900 ms against 100 ms)
    assertThat(pause).isEqualTo(Duration.ofMillis(900));
  }

  @Test
  void noLimitNeverRests() {
    // Given no limit
    // When anything was read
    // Then there is no pause
    assertThat(ChunkPacing.none().limits()).isFalse();
    assertThat(ChunkPacing.none().pauseAfterChunk(1_000_000, Duration.ZERO, Duration.ZERO))
        .isZero();
  }

  @Test
  void negativeLimitsAreRefusedNamingTheSetting() {
    // Given negative limits
    // When pacing is built
    // Then each is refused naming its setting
    assertThatThrownBy(() -> new ChunkPacing(-1, Duration.ZERO))
        .hasMessageContaining("throttle.max.rows.per.second");
    assertThatThrownBy(() -> new ChunkPacing(0, Duration.ofMillis(-1)))
        .hasMessageContaining("throttle.chunk.time.ms");
  }
}
