package io.cdccompare.app;

import java.util.concurrent.CountDownLatch;

/**
 * The Ctrl-C hook of a long-running command: on shutdown it asks the command to stop, then waits
 * (see {@link Awaits#quietly}) until the command has finished its step and {@linkplain #close()
 * closed} the hook. A command that ends by itself closes it too, which removes the hook.
 */
final class StopHook implements AutoCloseable {
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;

  private StopHook(String threadName, Runnable stop) {
    this.hook =
        new Thread(
            () -> {
              stop.run();
              Awaits.quietly(finished);
            },
            threadName);
  }

  /** Registers a hook that runs {@code stop} on a thread named {@code threadName}. */
  static StopHook install(String threadName, Runnable stop) {
    StopHook stopHook = new StopHook(threadName, stop);
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
