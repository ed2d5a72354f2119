package io.cdccompare.bench.e2e;

import io.cdccompare.childverifier.ChildVerifier;
import io.cdccompare.childverifier.HeapWatch;
import io.cdccompare.childverifier.ThreadCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark measures over a window besides time, for every process it can see: CPU per
 * process ({@link ProcessCpuMeter}: the servers and each verifier JVM by process tree), CPU by
 * thread group inside each JVM ({@link ThreadCpu}) and the heap of each JVM ({@link HeapWatch}; the
 * verifier JVMs report theirs on request). One window at a time.
 */
final class Instruments {
  private final HeapWatch heap = HeapWatch.start();
  private final Servers servers;
  private final Pipeline pipeline;

  /** A window being measured. */
  final class Window {
    private final Map<String, Map<String, Long>> threadsBefore;
    private final ProcessCpuMeter meter;

    private Window() throws Exception {
      resetHeaps();
      threadsBefore = threadCpu();
      meter = ProcessCpuMeter.start(processes());
    }

    /** Ends the window; {@code seconds} is its length as the caller timed it. */
    TableRun.Window end(double seconds) throws Exception {
      Map<String, Double> cpu = meter.stop();
      Map<String, Map<String, Double>> threads = new LinkedHashMap<>();
      threadCpu()
          .forEach(
              (jvm, after) -> threads.put(jvm, ThreadCpu.between(threadsBefore.get(jvm), after)));
      return new TableRun.Window(seconds, cpu, heaps(), threads);
    }
  }

  Instruments(Servers servers, Pipeline pipeline) {
    this.servers = servers;
    this.pipeline = pipeline;
  }

  /** Starts a window: heap windows reset, thread and process CPU noted. */
  Window start() throws Exception {
    return new Window();
  }

  /** The name a verifier JVM is reported under. */
  static String verifierPart(String target) {
    return "verifier " + target + " JVM";
  }

  /** The processes to measure: the servers' and each verifier JVM. */
  private Map<String, List<Long>> processes() {
    Map<String, List<Long>> roots = new LinkedHashMap<>(servers.serverProcesses());
    for (ChildVerifier v : pipeline.verifiers()) {
      roots.put(verifierPart(v.target()), List.of(v.pid()));
    }
    return roots;
  }

  private void resetHeaps() throws Exception {
    heap.reset();
    for (ChildVerifier v : pipeline.verifiers()) {
      v.resetHeap();
    }
  }

  private Map<String, HeapWatch.Heap> heaps() throws Exception {
    Map<String, HeapWatch.Heap> heaps = new LinkedHashMap<>();
    heaps.put(ProcessCpuMeter.SELF, heap.heap());
    for (ChildVerifier v : pipeline.verifiers()) {
      heaps.put(verifierPart(v.target()), v.heap());
    }
    return heaps;
  }

  /** CPU nanoseconds by thread group of this JVM and of each verifier JVM, so far. */
  private Map<String, Map<String, Long>> threadCpu() throws Exception {
    Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
    threads.put(ProcessCpuMeter.SELF, ThreadCpu.snapshot());
    for (ChildVerifier v : pipeline.verifiers()) {
      threads.put(verifierPart(v.target()), v.threadCpu());
    }
    return threads;
  }
}
