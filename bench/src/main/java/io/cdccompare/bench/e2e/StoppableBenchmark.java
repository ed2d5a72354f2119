package io.cdccompare.bench.e2e;

import java.util.Optional;

/**
 * A system benchmark run from a {@code main}: a SIGTERM or Ctrl-C during it stops it (a shutdown
 * hook), and whatever happens it is closed. Its figures are printed only when it ran to the end.
 */
public interface StoppableBenchmark<T> extends AutoCloseable {
  /** Runs the benchmark to the end and returns what it measured. */
  T run() throws Exception;

  /** Asks a running benchmark to stop; from any thread. */
  void stop();

  /** Whether {@link #stop} was asked. */
  boolean stopped();

  @Override
  void close();

  /**
   * Runs {@code benchmark} under a shutdown hook named {@code hookName} that stops it, then closes
   * it.
   *
   * @return what it measured; empty, with a line on standard error, when it was stopped first
   */
  static <T> Optional<T> runUntilStopped(StoppableBenchmark<T> benchmark, String hookName)
      throws Exception {
    Thread hook = new Thread(benchmark::stop, hookName);
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return Optional.of(benchmark.run());
    } catch (Exception e) {
      if (benchmark.stopped()) {
        System.err.println("stopped before the end: no figures");
        return Optional.empty();
      }
      throw e;
    } finally {
      benchmark.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it closes the same things
      }
    }
  }
}
