package io.cdccompare.embedded;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The one wait-until-it-answers loop of every server: probe, and fail fast (naming the component
 * and its log) when the process exits or the timeout passes.
 */
final class Readiness {
  private Readiness() {}

  /** A check that returns when the server answers and throws while it does not yet. */
  @FunctionalInterface
  interface Probe {
    void answer() throws Exception;
  }

  static void await(
      Component component,
      Path log,
      ChildProcess process,
      String where,
      Duration timeout,
      Duration interval,
      Probe probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new ComponentStartException(
            component, log, "the " + process.name() + " process exited", null);
      }
      try {
        probe.answer();
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "interrupted while waiting for " + component.displayName(), e);
      } catch (Exception notYet) {
        if (System.nanoTime() > deadline) {
          throw new ComponentStartException(
              component, log, "no answer on " + where + " after " + timeout, notYet);
        }
      }
      pause(interval);
    }
  }

  private static void pause(Duration interval) {
    try {
      Thread.sleep(interval.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a server", e);
    }
  }
}
