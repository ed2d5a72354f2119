package io.cdccompare.source;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named places where a fault test can make the process die, the way a crash would: with {@code
 * -Dcdc.failpoint=<name>} (or {@code <name>@<n>} for the n-th time the place is reached) the JVM
 * halts there at once, running no shutdown hook. Without the property it does nothing.
 */
public final class Failpoint {
  /**
   * After Kafka acknowledged a batch holding at least one change (heartbeat-only batches do not
   * count), before the engine may store its offsets.
   */
  public static final String CAPTURE_ACKED_NOT_COMMITTED = "capture.acked-not-committed";

  /**
   * In the compare producer, after the broker acknowledged every hash record of a chunk, before its
   * CLOSE note is committed: the chunk is OPEN and its hash records orphaned.
   */
  public static final String COMPARE_HASHES_WRITTEN = "compare.hashes-written";

  /** Exit status of a JVM halted by a failpoint. */
  public static final int HALT_STATUS = 86;

  private static final AtomicInteger HITS = new AtomicInteger();

  private Failpoint() {}

  public static void hit(String name) {
    String configured = System.getProperty("cdc.failpoint");
    if (configured == null || !configured.startsWith(name)) {
      return;
    }
    int at = configured.indexOf('@');
    int nth = at < 0 ? 1 : Integer.parseInt(configured.substring(at + 1));
    if ((at < 0 ? configured : configured.substring(0, at)).equals(name)
        && HITS.incrementAndGet() == nth) {
      System.err.println("FAILPOINT " + name + " reached, halting");
      System.err.flush();
      Runtime.getRuntime().halt(HALT_STATUS);
    }
  }
}
