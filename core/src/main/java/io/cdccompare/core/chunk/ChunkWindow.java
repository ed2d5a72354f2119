package io.cdccompare.core.chunk;

/**
 * How many chunks of one table in one task run may be open at once (docs/design.md, "Chunks, notes
 * and the in-flight window"): the producer opens and reads chunk {@code n + 1} while the hash
 * records of chunk {@code n} are acknowledged and its CLOSE note committed, so at most {@value
 * #OPEN_CHUNKS} chunks are between their OPEN and CLOSE notes. A verifier that meets the OPEN of
 * chunk {@code n} therefore knows that an open chunk of the same run numbered {@code n -
 * OPEN_CHUNKS} or lower will never close (its CLOSE would have come first): that run was stopped
 * and resumed, and the old chunk can be forgotten.
 */
public final class ChunkWindow {
  /** Chunks of one (task, run, table) open at once, at most. */
  public static final int OPEN_CHUNKS = 2;

  private ChunkWindow() {}

  /**
   * Whether chunk {@code open}, still open, can never close now that chunk {@code opening} of the
   * same run opens.
   */
  public static boolean abandoned(long open, long opening) {
    return open <= opening - OPEN_CHUNKS;
  }
}
