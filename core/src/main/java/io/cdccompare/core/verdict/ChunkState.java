package io.cdccompare.core.verdict;

/** Whether a chunk could be compared on a target (the {@code ChunkResult.state} of the topic). */
public enum ChunkState {
  /** The counts and keys are the verdict. */
  VERIFIED,
  /** The chunk could not be checked (hash record lost, poison record, target error). */
  UNVERIFIABLE,
  /** The target's columns do not match the note's column fingerprint; no row was compared. */
  SCHEMA_DRIFT,
  /**
   * A verify-only target whose followed consumer group did not pass the chunk's CLOSE marker in
   * time, has no committed offset, or went back: the target was not read; counted with the
   * unverifiable chunks.
   */
  STALLED
}
