package io.cdccompare.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time spent by the parts of a benchmark on this Linux machine while it runs, read from {@code
 * /proc} every 50 ms: this JVM (every thread, JIT and GC included), the PostgreSQL server (every
 * process, backends that start and end meanwhile included) and the Kafka broker's JVM. Processes
 * are sampled rather than read once at each end because a PostgreSQL backend ends with its
 * connection, taking its CPU time with it; one that ends loses at most its last 50 ms. The sampling
 * thread's own CPU is taken off this JVM's figure. Where {@code /proc} is missing, every figure is
 * 0.
 */
final class CpuMeter implements AutoCloseable {
  static final String PRODUCER = "producer JVM";
  static final String POSTGRES = "PostgreSQL";
  static final String BROKER = "Kafka broker";

  private static final Path PROC = Path.of("/proc");
  private static final double TICKS = 100.0; // USER_HZ on Linux
  private static final long PERIOD_MS = 50;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long self = ProcessHandle.current().pid();
  private final Map<Long, String> parts = new HashMap<>();
  private final Map<Long, Long> first = new HashMap<>();
  private final Map<Long, Long> last = new HashMap<>();
  private final Thread sampler;
  private volatile boolean running = true;
  private volatile long samplerNanos;

  private CpuMeter() {
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
            "cpu-meter");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Starts measuring. */
  static CpuMeter start() {
    return new CpuMeter();
  }

  /** Stops measuring; the CPU seconds each part used since {@link #start()}. */
  Map<String, Double> stop() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join();
    sample(false);
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put(PRODUCER, 0.0);
    seconds.put(POSTGRES, 0.0);
    seconds.put(BROKER, 0.0);
    last.forEach(
        (pid, ticks) ->
            seconds.merge(
                parts.get(pid), (ticks - first.getOrDefault(pid, 0L)) / TICKS, Double::sum));
    // the sampling itself runs in this JVM: not the producer's
    seconds.merge(PRODUCER, -samplerNanos / 1e9, Double::sum);
    return seconds;
  }

  @Override
  public void close() throws InterruptedException {
    if (running) {
      stop();
    }
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

  /** The part a process belongs to, "" for none of them. */
  private String partOf(long pid) {
    if (pid == self) {
      return PRODUCER;
    }
    String command;
    try {
      command =
          new String(
                  Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline")),
                  StandardCharsets.UTF_8)
              .replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
    if (command.startsWith("postgres") || command.contains("/bin/postgres ")) {
      return POSTGRES;
    }
    if (command.contains(" kafka.Kafka ")) {
      return BROKER;
    }
    return "";
  }

  /** utime + stime of the process's own threads, in ticks; -1 once it ended. */
  private static long ticks(Path process) {
    try {
      String stat = Files.readString(process.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
