package io.cdccompare.app;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The Ctrl-C hook of a long-running command: on shutdown it asks the command to stop, then waits
 * (see {@link Awaits#quietly}) until the command has finished its step and {@linkplain #close()
 * closed} the hook. A command that ends by itself closes it too, which removes the hook.
 */
final class StopHook implements AutoCloseable {
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;

  private StopHook(String threadName, Runnable stop, Duration finishing) {
    this.hook =
        new Thread(
            () -> {
              stop.run();
              Awaits.quietly(finished, finishing);
            },
            threadName);
  }

  /**
   * Registers a hook that runs {@code stop} on a thread named {@code threadName}, then waits for
   * the command's step to finish ({@link Awaits#STOP_BOUND}).
   */
  static StopHook install(String threadName, Runnable stop) {
    return install(threadName, stop, Awaits.STOP_BOUND);
  }

  /**
   * As {@link #install(String, Runnable)}, for a command whose {@code stop} itself waits for its
   * work to end: the hook waits only {@code finishing} more for the command to return.
   */
  static StopHook install(String threadName, Runnable stop, Duration finishing) {
    StopHook stopHook = new StopHook(threadName, stop, finishing);
    Runtime.getRuntime().addShutdownHook(stopHook.hook);
    return stopHook;
  }

  /** The command has ended: a running hook may let the JVM end, an idle one is removed. */
  @Override
  public void close() {
    finished.countDown();
    Awaits.removeHook(hook);
  }
}
