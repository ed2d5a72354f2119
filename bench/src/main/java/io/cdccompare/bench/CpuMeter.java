package io.cdccompare.bench;

import java.util.List;
import java.util.Map;

/**
 * CPU time spent by the parts of a benchmark on this Linux machine while it runs ({@link
 * ProcCpuSampler}): this JVM (every thread, JIT and GC included), the PostgreSQL server (every
 * process, backends that start and end meanwhile included) and the Kafka broker's JVM, told apart
 * by their command lines.
 */
final class CpuMeter implements AutoCloseable {
  static final String PRODUCER = "producer JVM";
  static final String POSTGRES = "PostgreSQL";
  static final String BROKER = "Kafka broker";

  private final ProcCpuSampler sampler;

  private CpuMeter() {
    sampler = ProcCpuSampler.start(PRODUCER, List.of(POSTGRES, BROKER), CpuMeter::partOf);
  }

  /** Starts measuring. */
  static CpuMeter start() {
    return new CpuMeter();
  }

  /** Stops measuring; the CPU seconds each part used since {@link #start()}. */
  Map<String, Double> stop() throws InterruptedException {
    return sampler.stop();
  }

  @Override
  public void close() throws InterruptedException {
    if (sampler.running()) {
      stop();
    }
  }

  /** The part a process belongs to, "" for none of them. */
  private static String partOf(long pid) {
    String command = ProcCpuSampler.commandLine(pid);
    if (command == null) {
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
}
