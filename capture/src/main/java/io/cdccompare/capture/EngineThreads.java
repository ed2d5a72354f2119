package io.cdccompare.capture;

import java.util.Map;

/**
 * Where a capture's engine waits, for the warning of a stop that gave up: the stacks of the given
 * threads (the stop's closer, the engine's runner) and of every live thread running Debezium or
 * Kafka Connect code (the engine's task and polling threads have pool names that say neither).
 */
final class EngineThreads {
  /** Frames shown per thread: enough to see what it waits on and who asked. */
  private static final int FRAMES = 25;

  private EngineThreads() {}

  static String describe(Thread... named) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
      if (isNamed(t.getKey(), named) || runsEngineCode(t.getValue())) {
        out.append(System.lineSeparator())
            .append("  thread \"")
            .append(t.getKey().getName())
            .append("\" ")
            .append(t.getKey().getState());
        StackTraceElement[] frames = t.getValue();
        for (int i = 0; i < Math.min(FRAMES, frames.length); i++) {
          out.append(System.lineSeparator()).append("    at ").append(frames[i]);
        }
      }
    }
    return out.toString();
  }

  private static boolean isNamed(Thread thread, Thread[] named) {
    for (Thread n : named) {
      if (n == thread) {
        return true;
      }
    }
    return false;
  }

  private static boolean runsEngineCode(StackTraceElement[] frames) {
    for (StackTraceElement f : frames) {
      String c = f.getClassName();
      if (c.startsWith("io.debezium.") || c.startsWith("org.apache.kafka.connect.")) {
        return true;
      }
    }
    return false;
  }
}
