package io.cdccompare.operations.status;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The one line that says why a part of the status could not be read. */
final class Reasons {
  private Reasons() {}

  /** The first line of the failure's message, unwrapped from executor wrappers. */
  static String oneLine(Throwable failure) {
    Throwable e = failure;
    while ((e instanceof ExecutionException || e instanceof CompletionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      message = e.getClass().getSimpleName();
    }
    int nl = message.indexOf('\n');
    return (nl < 0 ? message : message.substring(0, nl)).strip();
  }
}
