package io.cdccompare.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/**
 * CPU time of the processes of a benchmark's parts on this Linux machine while it runs, read from
 * {@code /proc} every {@value #PERIOD_MS} ms. Processes are sampled rather than read once at each
 * end because a PostgreSQL backend ends with its connection, taking its CPU time with it; one that
 * ends loses at most its last {@value #PERIOD_MS} ms. Which part a process belongs to is the
 * caller's rule, asked once per process; this JVM is a part of its own, without the sampling
 * thread's CPU. Where {@code /proc} is missing every figure is 0. Used by {@link CpuMeter} (parts
 * by command line) and the end-to-end benchmark's {@code ProcessCpuMeter} (parts by process tree).
 */
public final class ProcCpuSampler {
  private static final Path PROC = Path.of("/proc");
  private static final double TICKS = 100.0; // USER_HZ on Linux
  private static final long PERIOD_MS = 50;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long self = ProcessHandle.current().pid();
  private final String selfPart;
  private final List<String> order;
  private final LongFunction<String> partOf;
  private final Map<Long, String> parts = new HashMap<>();
  private final Map<Long, Long> first = new HashMap<>();
  private final Map<Long, Long> last = new HashMap<>();
  private final Thread sampler;
  private volatile boolean running = true;
  private volatile long samplerNanos;

  private ProcCpuSampler(String selfPart, List<String> order, LongFunction<String> partOf) {
    this.selfPart = selfPart;
    this.order = List.copyOf(order);
    this.partOf = partOf;
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
            "cpu-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  /**
   * Starts sampling.
   *
   * @param selfPart the part this JVM is counted under
   * @param order the other parts, in the order {@link #stop()} reports them
   * @param partOf the part of another process by its pid, "" for none of them
   */
  public static ProcCpuSampler start(
      String selfPart, List<String> order, LongFunction<String> partOf) {
    return new ProcCpuSampler(selfPart, order, partOf);
  }

  /** Whether {@link #stop()} has not been called yet. */
  public boolean running() {
    return running;
  }

  /** Stops sampling; the CPU seconds of this JVM's part, then of each other part. */
  public Map<String, Double> stop() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join();
    sample(false);
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put(selfPart, 0.0);
    order.forEach(part -> seconds.put(part, 0.0));
    last.forEach(
        (pid, ticks) ->
            seconds.merge(
                parts.get(pid), (ticks - first.getOrDefault(pid, 0L)) / TICKS, Double::sum));
    // the sampling itself runs in this JVM: not its part's
    seconds.merge(selfPart, -samplerNanos / 1e9, Double::sum);
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
                String part =
                    parts.computeIfAbsent(pid, id -> id == self ? selfPart : partOf.apply(id));
                if (part.isEmpty()) {
                  return;
                }
                String[] fields = statFields(pid);
                if (fields == null) {
                  return; // ended meanwhile
                }
                long ticks = Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
                if (atStart) {
                  first.put(pid, ticks);
                }
                last.put(pid, ticks);
              });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + PROC, e);
    }
  }

  /**
   * The fields of {@code /proc/<pid>/stat} after the command name (field 3 first: the parent's pid
   * is {@code [4 - 3]}, utime and stime {@code [14 - 3]} and {@code [15 - 3]}); null once it ended.
   */
  public static String[] statFields(long pid) {
    return statFields(PROC.resolve(Long.toString(pid)).resolve("stat"));
  }

  /**
   * The fields of a {@code stat} file (a process's or a thread's) after its name; null once gone.
   */
  public static String[] statFields(Path stat) {
    try {
      String text = Files.readString(stat);
      return text.substring(text.lastIndexOf(')') + 2).split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The command line of a process, its arguments joined by blanks; null once it ended. */
  public static String commandLine(long pid) {
    try {
      return new String(
              Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline")),
              java.nio.charset.StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (IOException e) {
      return null;
    }
  }
}
