package io.cdccompare.verifier.stream;

import java.time.Duration;

/**
 * Time for the wait of a verify-only CLOSE marker ({@link FollowWait}): a monotonic clock and a
 * pause between two reads of the followed group. Tests pass one that only advances its clock.
 */
interface Ticker {

  /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
  long nanos();

  /** Waits {@code pause}; interruptible. */
  void pause(Duration pause) throws InterruptedException;

  /** The system's clock, and {@link Thread#sleep} between reads. */
  static Ticker system() {
    return new Ticker() {
      @Override
      public long nanos() {
        return System.nanoTime();
      }

      @Override
      public void pause(Duration pause) throws InterruptedException {
        Thread.sleep(pause.toMillis());
      }
    };
  }
}
