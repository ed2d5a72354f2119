package io.cdccompare.bench.e2e;

import io.cdccompare.bench.ProcCpuSampler;
import io.cdccompare.childverifier.ThreadCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this JVM as the kernel sees it ({@code /proc/self/task}), summed by
 * the kernel's thread name with digits blanked: unlike {@link ThreadCpu} it sees the JVM's own
 * threads, the JIT compilers ({@code C1 CompilerThre}, {@code C2 CompilerThre}) and the collector
 * among them, under the first 15 characters of their names. A thread that ends inside a window
 * loses its time. Where {@code /proc} is missing it sees nothing.
 */
final class NativeThreads {
  private static final Path TASKS = Path.of("/proc/self/task");
  private static final double TICK_SECONDS = 0.01; // USER_HZ on Linux

  private NativeThreads() {}

  /** CPU seconds of the live threads so far, by name. */
  static Map<String, Double> snapshot() {
    Map<String, Double> byName = new TreeMap<>();
    if (!Files.isDirectory(TASKS)) {
      return byName;
    }
    try (Stream<Path> tasks = Files.list(TASKS)) {
      tasks.forEach(
          task -> {
            String[] fields = ProcCpuSampler.statFields(task.resolve("stat"));
            String name = name(task);
            if (fields != null && name != null) {
              double seconds =
                  (Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3])) * TICK_SECONDS;
              byName.merge(name, seconds, Double::sum);
            }
          });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + TASKS, e);
    }
    return byName;
  }

  /** What each name used between two snapshots, in seconds. */
  static Map<String, Double> between(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> used = new TreeMap<>();
    after.forEach(
        (name, seconds) -> {
          double d = seconds - before.getOrDefault(name, 0.0);
          if (d > 0) {
            used.put(name, d);
          }
        });
    return used;
  }

  private static String name(Path task) {
    try {
      return Files.readString(task.resolve("comm")).strip().replaceAll("\\d+", "N");
    } catch (IOException e) {
      return null; // ended meanwhile
    }
  }
}
