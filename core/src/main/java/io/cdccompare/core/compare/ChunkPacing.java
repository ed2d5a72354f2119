package io.cdccompare.core.compare;

import java.time.Duration;

/**
 * The compare producer's throttle, so that a busy production source is not overloaded: after each
 * chunk it rests for {@link #pauseAfterChunk}, the longer of what each limit asks.
 *
 * <ul>
 *   <li>{@code maxRowsPerSecond}: the rows read since the table started never exceed this rate;
 *   <li>{@code chunkTime}: a chunk takes at least this long (read, hash and note), so the source
 *       sees at most one chunk per {@code chunkTime}.
 * </ul>
 *
 * Zero switches a limit off. Pure arithmetic: the caller measures and sleeps.
 */
public record ChunkPacing(long maxRowsPerSecond, Duration chunkTime) {

  public ChunkPacing {
    if (maxRowsPerSecond < 0) {
      throw new IllegalArgumentException(
          "throttle.max.rows.per.second must be >= 0, was " + maxRowsPerSecond);
    }
    if (chunkTime == null || chunkTime.isNegative()) {
      throw new IllegalArgumentException("throttle.chunk.time.ms must be >= 0, was " + chunkTime);
    }
  }

  /** No limit. */
  public static ChunkPacing none() {
    return new ChunkPacing(0, Duration.ZERO);
  }

  public boolean limits() {
    return maxRowsPerSecond > 0 || !chunkTime.isZero();
  }

  /**
   * @param rowsSoFar rows read since the pacing started, this chunk's included
   * @param sinceStart time since the pacing started, until now
   * @param thisChunk time this chunk took, until now
   * @return how long to rest before the next chunk
   */
  public Duration pauseAfterChunk(long rowsSoFar, Duration sinceStart, Duration thisChunk) {
    Duration pause = Duration.ZERO;
    if (maxRowsPerSecond > 0) {
      Duration earliest =
          Duration.ofNanos(Math.multiplyExact(rowsSoFar, 1_000_000_000L) / maxRowsPerSecond);
      pause = max(pause, earliest.minus(sinceStart));
    }
    if (!chunkTime.isZero()) {
      pause = max(pause, chunkTime.minus(thisChunk));
    }
    return pause;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
