package io.cdccompare.childverifier;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * CPU time of this JVM's live threads, summed by thread group: the thread's name with ids and
 * numbers blanked ({@code cdc-verify-pg-<uuid>-StreamThread-1} → {@code …-StreamThread-N}), so that
 * a window's difference of two snapshots says which part of a process used its CPU: the stream
 * thread (apply and verify), the Kafka clients' network threads, the report aggregation, the JIT
 * compiler, the collector. A thread that ends inside a window loses its time; JVM-internal threads
 * (compiler, GC) are not Java threads and are not counted: bench's {@code ProcessCpuMeter} has the
 * process total.
 */
public final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  /** A number not glued to a letter: {@code -1}, {@code #0}, not the 2 of {@code e2e}. */
  private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z])\\d+");

  private ThreadCpu() {}

  /** CPU nanoseconds of the live threads so far, by group. */
  public static Map<String, Long> snapshot() {
    Map<String, Long> byGroup = new TreeMap<>();
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long nanos = THREADS.getThreadCpuTime(info.getThreadId());
      if (nanos > 0) {
        byGroup.merge(group(info.getThreadName()), nanos, Long::sum);
      }
    }
    return byGroup;
  }

  /** What each group used between two snapshots, in seconds. */
  public static Map<String, Double> between(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Double> seconds = new LinkedHashMap<>();
    after.forEach(
        (group, nanos) -> {
          double used = (nanos - before.getOrDefault(group, 0L)) / 1e9;
          if (used > 0) {
            seconds.put(group, used);
          }
        });
    return seconds;
  }

  static String group(String threadName) {
    String name = UUID.matcher(threadName).replaceAll("*");
    name = NUMBER.matcher(name).replaceAll("N");
    return name.replace(" | ", ":").replace('|', ':').replace(' ', '_');
  }
}
