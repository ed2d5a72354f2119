package io.cdccompare.app;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Shutdown-hook helpers: a hook lets the running command finish its step before the JVM ends. */
final class Awaits {
  /** How long a Ctrl-C waits for the running step (a chunk, a batch) to finish. */
  static final Duration STOP_BOUND = Duration.ofSeconds(60);

  private Awaits() {}

  static void quietly(CountDownLatch latch, Duration bound) {
    try {
      latch.await(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Removes a hook once the command ended by itself (fails only while the JVM shuts down). */
  static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running: it waits for the latch this command has just released
    }
  }
}
