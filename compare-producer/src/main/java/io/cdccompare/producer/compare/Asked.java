package io.cdccompare.producer.compare;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The answer of something a run's start asked on a thread of its own ({@link KafkaStart}, {@link
 * SourceStart}): what it returned, or the failure it threw, thrown as it was thrown there.
 */
final class Asked {
  private Asked() {}

  static <T> T answer(Future<T> asked) throws Exception {
    try {
      return asked.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
