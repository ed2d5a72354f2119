package io.cdccompare.core.verdict;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The verdict of one chunk in one partition for one target, as stored in the target and emitted on
 * the results topic: decided once at the chunk's CLOSE marker and re-emitted unchanged when the
 * marker is replayed (docs/design.md, "Delivery guarantees").
 *
 * <p>A {@link ChunkState#VERIFIED} verdict has no error; any other state has an error for a human
 * and all-zero counts. {@code verifiedAt} is kept to the microsecond (what the stores and the
 * results topic hold), so a verdict read back equals the one written. Immutable.
 *
 * @param markerOffset offset of the CLOSE marker in this partition of the table topic
 */
public record PartitionVerdict(
    VerdictId id,
    long markerOffset,
    ChunkState state,
    ChunkVerdict verdict,
    String error,
    Instant verifiedAt) {

  public PartitionVerdict {
    if (id == null || state == null || verdict == null || verifiedAt == null) {
      throw new IllegalArgumentException("a verdict needs an id, a state, counts and a time");
    }
    if (markerOffset < 0) {
      throw new IllegalArgumentException("markerOffset must not be negative, was " + markerOffset);
    }
    if (state == ChunkState.VERIFIED && error != null) {
      throw new IllegalArgumentException("a VERIFIED verdict has no error, got '" + error + "'");
    }
    if (state != ChunkState.VERIFIED) {
      if (error == null || error.isBlank()) {
        throw new IllegalArgumentException("a " + state + " verdict needs an error");
      }
      if (!verdict.equals(ChunkVerdict.empty())) {
        throw new IllegalArgumentException("a " + state + " verdict counts no row");
      }
    }
    verifiedAt = verifiedAt.truncatedTo(ChronoUnit.MICROS);
  }

  public static PartitionVerdict verified(
      VerdictId id, long markerOffset, ChunkVerdict verdict, Instant verifiedAt) {
    return new PartitionVerdict(id, markerOffset, ChunkState.VERIFIED, verdict, null, verifiedAt);
  }

  /** A chunk that could not be checked ({@link ChunkState#UNVERIFIABLE} or SCHEMA_DRIFT). */
  public static PartitionVerdict notVerified(
      VerdictId id, long markerOffset, ChunkState state, String error, Instant verifiedAt) {
    return new PartitionVerdict(id, markerOffset, state, ChunkVerdict.empty(), error, verifiedAt);
  }
}
