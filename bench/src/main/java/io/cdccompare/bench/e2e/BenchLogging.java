package io.cdccompare.bench.e2e;

import java.net.URL;

/** The logging of a system benchmark's main. */
public final class BenchLogging {
  private static final String LOGBACK = "logback.configurationFile";

  private BenchLogging() {}

  /**
   * Names this module's {@code logback.xml} by its URL unless one is given: the app's jar brings a
   * {@code logback.xml} too, and a resource name would be looked up, and found twice, again
   * (logback then prints its status).
   */
  public static void useOwnConfiguration() {
    URL logback = BenchLogging.class.getResource("/logback.xml");
    if (System.getProperty(LOGBACK) == null && logback != null) {
      System.setProperty(LOGBACK, logback.toString());
    }
  }
}
