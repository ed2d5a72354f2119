package io.cdccompare.bench.e2e;

import io.cdccompare.bench.ProcCpuSampler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time each named part of the benchmark uses while it runs ({@link ProcCpuSampler}), by process
 * tree: a part is a set of root processes (a server's processes, a child JVM) and every process
 * descending from one of them, so the two PostgreSQL servers, MariaDB and each verifier JVM are
 * told apart, and servers of other runs on the same machine are not counted. A PostgreSQL backend
 * forked during the window is found through its parent. This JVM is a part of its own ({@link
 * #SELF}, its descendants excluded), without the sampling thread's CPU.
 */
public final class ProcessCpuMeter {
  /** The part this JVM is counted under. */
  public static final String SELF = "this JVM";

  private final long self = ProcessHandle.current().pid();
  private final Map<Long, String> roots = new HashMap<>();
  private final ProcCpuSampler sampler;

  private ProcessCpuMeter(Map<String, List<Long>> rootsByPart) {
    rootsByPart.forEach((part, pids) -> pids.forEach(pid -> roots.put(pid, part)));
    sampler = ProcCpuSampler.start(SELF, List.copyOf(rootsByPart.keySet()), this::partOf);
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
    return sampler.stop();
  }

  /** The part of the first root among the process and its ancestors; "" for none. */
  private String partOf(long pid) {
    long current = pid;
    for (int depth = 0; depth < 64 && current > 1 && current != self; depth++) {
      String part = roots.get(current);
      if (part != null) {
        return part;
      }
      String[] fields = ProcCpuSampler.statFields(current);
      current = fields == null ? -1 : Long.parseLong(fields[4 - 3]);
    }
    return "";
  }
}
