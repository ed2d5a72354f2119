package io.cdccompare.bench.e2e;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time each named part of the benchmark uses while it runs, read from {@code /proc} every
 * {@value #PERIOD_MS} ms, like {@code CpuMeter}, but by process tree: a part is a set of root
 * processes (a server's processes, a child JVM) and every process descending from one of them, so
 * the two PostgreSQL servers, MariaDB and each verifier JVM are told apart, and servers of other
 * runs on the same machine are not counted. A PostgreSQL backend forked during the window is found
 * through its parent; one that ends loses at most its last {@value #PERIOD_MS} ms. This JVM is a
 * part of its own ({@link #SELF}, its descendants excluded), without the sampling thread's CPU.
 * Where {@code /proc} is missing every figure is 0.
 */
public final class ProcessCpuMeter {
  /** The part this JVM is counted under. */
  public static final String SELF = "this JVM";

  private static final Path PROC = Path.of("/proc");
  private static final double TICKS = 100.0; // USER_HZ on Linux
  private static final long PERIOD_MS = 50;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long self = ProcessHandle.current().pid();
  private final Map<Long, String> roots = new HashMap<>();
  private final List<String> order;
  private final Map<Long, String> parts = new HashMap<>();
  private final Map<Long, Long> first = new HashMap<>();
  private final Map<Long, Long> last = new HashMap<>();
  private final Thread sampler;
  private volatile boolean running = true;
  private volatile long samplerNanos;

  private ProcessCpuMeter(Map<String, List<Long>> rootsByPart) {
    this.order = List.copyOf(rootsByPart.keySet());
    rootsByPart.forEach((part, pids) -> pids.forEach(pid -> roots.put(pid, part)));
    sample(true);
    sampler =
        new Thread(
            () -> {
              while (running) {
                try {
                  Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                  return;
                }
                sample(false);
                samplerNanos = THREADS.getCurrentThreadCpuTime();
              }
            },
            "process-cpu-meter");
    sampler.setDaemon(true);
    sampler.start();
  }

  /**
   * Starts measuring.
   *
   * @param rootsByPart the root processes of each part, in the order {@link #stop()} reports them
   */
  public static ProcessCpuMeter start(Map<String, List<Long>> rootsByPart) {
    return new ProcessCpuMeter(rootsByPart);
  }

  /** Stops measuring; the CPU seconds of {@link #SELF} and of each part since {@link #start}. */
  public Map<String, Double> stop() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join();
    sample(false);
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put(SELF, 0.0);
    order.forEach(part -> seconds.put(part, 0.0));
    last.forEach(
        (pid, ticks) ->
            seconds.merge(
                parts.get(pid), (ticks - first.getOrDefault(pid, 0L)) / TICKS, Double::sum));
    seconds.merge(SELF, -samplerNanos / 1e9, Double::sum);
    return seconds;
  }

  private synchronized void sample(boolean atStart) {
    if (!Files.isDirectory(PROC)) {
      return;
    }
    try (Stream<Path> entries = Files.list(PROC)) {
      entries
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .forEach(
              p -> {
                long pid = Long.parseLong(p.getFileName().toString());
                String part = parts.computeIfAbsent(pid, this::partOf);
                if (part.isEmpty()) {
                  return;
                }
                long ticks = ticks(p);
                if (ticks < 0) {
                  return; // ended meanwhile
                }
                if (atStart) {
                  first.put(pid, ticks);
                }
                last.put(pid, ticks);
              });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + PROC, e);
    }
  }

  /** The part of the first root among the process and its ancestors; "" for none. */
  private String partOf(long pid) {
    if (pid == self) {
      return SELF;
    }
    long current = pid;
    for (int depth = 0; depth < 64 && current > 1 && current != self; depth++) {
      String part = roots.get(current);
      if (part != null) {
        return part;
      }
      current = parent(current);
    }
    return "";
  }

  /** The parent's pid, -1 once the process ended. */
  private static long parent(long pid) {
    String[] fields = statFields(PROC.resolve(Long.toString(pid)));
    return fields == null ? -1 : Long.parseLong(fields[4 - 3]);
  }

  /** utime + stime of the process's own threads, in ticks; -1 once it ended. */
  private static long ticks(Path process) {
    String[] fields = statFields(process);
    return fields == null ? -1 : Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
  }

  /** The fields of {@code stat} after the command name (field 3 first); null once it ended. */
  private static String[] statFields(Path process) {
    try {
      String stat = Files.readString(process.resolve("stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
