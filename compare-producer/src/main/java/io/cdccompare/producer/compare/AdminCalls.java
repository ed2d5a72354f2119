package io.cdccompare.producer.compare;

import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaFuture;

/** Waits for the answer of a Kafka admin call, a failure named by what was asked and where. */
final class AdminCalls {
  private AdminCalls() {}

  /**
   * The call's answer.
   *
   * @param what what was asked, e.g. {@code "describe topic t"}
   * @throws IllegalStateException naming {@code what} and the bootstrap servers when Kafka refused
   */
  static <T> T get(KafkaFuture<T> call, String what, String bootstrapServers)
      throws InterruptedException {
    try {
      return call.get();
    } catch (ExecutionException e) {
      throw failure(what, bootstrapServers, e);
    }
  }

  /** The failure of a call that Kafka refused. */
  static IllegalStateException failure(
      String what, String bootstrapServers, ExecutionException refused) {
    return new IllegalStateException(
        "cannot "
            + what
            + " on Kafka at "
            + bootstrapServers
            + ": "
            + refused.getCause().getMessage(),
        refused);
  }
}
