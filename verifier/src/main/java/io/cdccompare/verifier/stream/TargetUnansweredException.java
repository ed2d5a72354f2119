package io.cdccompare.verifier.stream;

import java.sql.SQLException;
import java.time.Duration;

/**
 * The target did not answer one apply or verify within {@code retry.timeout.ms}: every attempt
 * failed transiently (a broken connection, a statement or lock timeout, a deadlock). An apply stops
 * the task with it ({@link ApplyFailedException}); a verify makes its chunk UNVERIFIABLE with its
 * message as the reason. The message is one line naming the target, the work, the table and both
 * timeouts, then the last failure's first line; the last failure is the cause.
 */
final class TargetUnansweredException extends SQLException {
  private static final long serialVersionUID = 1L;

  TargetUnansweredException(
      String target,
      String work,
      Duration retryTimeout,
      Duration statementTimeout,
      int attempts,
      SQLException last) {
    super(
        "target "
            + target
            + " did not answer "
            + work
            + " within retry.timeout.ms="
            + retryTimeout.toMillis()
            + " (statement.timeout.ms="
            + statementTimeout.toMillis()
            + ", "
            + attempts
            + (attempts == 1 ? " attempt" : " attempts")
            + "): "
            + firstLine(last),
        last.getSQLState(),
        last.getErrorCode(),
        last);
  }

  static String firstLine(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }
}
