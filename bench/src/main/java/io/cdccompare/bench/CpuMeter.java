package io.cdccompare.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time spent by the parts of a benchmark on this Linux machine, read from {@code /proc}: this
 * JVM (every thread, JIT and GC included), the PostgreSQL server (every backend, and those that
 * ended meanwhile, through the postmaster's reaped-children time) and the Kafka broker's JVM. A
 * difference of two snapshots says how many CPU seconds each part took for the work in between.
 * Where {@code /proc} is missing, every figure is 0.
 */
final class CpuMeter {
  static final String PRODUCER = "producer JVM";
  static final String POSTGRES = "PostgreSQL";
  static final String BROKER = "Kafka broker";

  private static final Path PROC = Path.of("/proc");
  private static final double TICKS = 100.0; // USER_HZ on Linux

  private CpuMeter() {}

  /** CPU seconds used so far, by part. */
  static Map<String, Double> snapshot() {
    Map<String, Double> seconds = new LinkedHashMap<>();
    seconds.put(PRODUCER, 0.0);
    seconds.put(POSTGRES, 0.0);
    seconds.put(BROKER, 0.0);
    if (!Files.isDirectory(PROC)) {
      return seconds;
    }
    long self = ProcessHandle.current().pid();
    try (Stream<Path> entries = Files.list(PROC)) {
      entries
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .forEach(
              p -> {
                String part = partOf(p, self);
                if (part != null) {
                  seconds.merge(part, cpuSeconds(p), Double::sum);
                }
              });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + PROC, e);
    }
    return seconds;
  }

  /** {@code after - before}, by part. */
  static Map<String, Double> between(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> used = new LinkedHashMap<>();
    after.forEach((part, seconds) -> used.put(part, seconds - before.getOrDefault(part, 0.0)));
    return used;
  }

  private static String partOf(Path process, long self) {
    if (Long.parseLong(process.getFileName().toString()) == self) {
      return PRODUCER;
    }
    String command;
    try {
      command =
          new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8)
              .replace('\0', ' ');
    } catch (IOException e) {
      return null; // ended meanwhile, or not ours to read
    }
    if (command.startsWith("postgres") || command.contains("/bin/postgres ")) {
      return POSTGRES;
    }
    if (command.contains(" kafka.Kafka ")) {
      return BROKER;
    }
    return null;
  }

  /** utime + stime + cutime + cstime: its own threads and its reaped children. */
  private static double cpuSeconds(Path process) {
    try {
      String stat = Files.readString(process.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields[0] is field 3 (state); utime, stime, cutime, cstime are fields 14..17
      long ticks = 0;
      for (int field = 14; field <= 17; field++) {
        ticks += Long.parseLong(fields[field - 3]);
      }
      return ticks / TICKS;
    } catch (IOException | RuntimeException e) {
      return 0; // ended meanwhile
    }
  }
}
