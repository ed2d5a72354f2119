package io.cdccompare.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class EngineThreadsTest {

  @Test
  void aNamedThreadIsShownWithItsStateAndWhereItWaitsAndAnUnrelatedOneIsNot() throws Exception {
    // Given two threads waiting on a latch, one of them named as the engine's runner
    CountDownLatch release = new CountDownLatch(1);
    Thread runner = waiting("engine-runner-under-test", release);
    Thread other = waiting("unrelated-under-test", release);
    try {
      // When the engine's threads are described
      String described = EngineThreads.describe(runner);

      // Then the runner is there with its state and its frames, the other thread is not
      assertThat(described)
          .contains("thread \"engine-runner-under-test\" WAITING")
          .contains("java.util.concurrent.CountDownLatch.await(")
          .doesNotContain("unrelated-under-test");
    } finally {
      release.countDown();
      runner.join();
      other.join();
    }
  }

  private static Thread waiting(String name, CountDownLatch release) throws InterruptedException {
    Thread t =
        new Thread(
            () -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            name);
    t.start();
    while (t.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    return t;
  }
}
