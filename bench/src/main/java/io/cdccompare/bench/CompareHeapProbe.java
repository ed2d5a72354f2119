package io.cdccompare.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The child JVM of {@link CompareThroughput}: runs one compare task from a task file (as the
 * producer would, {@link CompareConfig#load}) and prints one line {@code RESULT key=value ...} on
 * standard output with its wall time, the rows read and compared, and three heap figures:
 *
 * <ul>
 *   <li>{@code peakHeap}: the sum over the heap pools of each pool's peak used bytes ({@link
 *       MemoryPoolMXBean#getPeakUsage()}) since the JVM started. The pools peak at different times,
 *       so this is an upper bound of the peak used heap; it counts garbage not yet collected too.
 *   <li>{@code sampledPeakHeap}: the largest used heap seen by a sampler every 10 ms (a true
 *       simultaneous figure, that may miss a short peak).
 *   <li>{@code liveAfterGc}: the largest used heap right after a collection (from the collectors'
 *       notifications): what the producer really keeps.
 * </ul>
 *
 * <p>Arguments: {@code <task-file>}. Exits 0 when the task completed; any failure (an {@code
 * OutOfMemoryError} under the child's {@code -Xmx} included) exits non-zero.
 */
public final class CompareHeapProbe {
  private CompareHeapProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: CompareHeapProbe <task-file>");
    }
    AtomicLong liveAfterGc = new AtomicLong();
    Set<String> heapPools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())) {
                  GarbageCollectionNotificationInfo info =
                      GarbageCollectionNotificationInfo.from(
                          (CompositeData) notification.getUserData());
                  long used = 0;
                  for (Map.Entry<String, MemoryUsage> e :
                      info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    if (heapPools.contains(e.getKey())) {
                      used += e.getValue().getUsed();
                    }
                  }
                  liveAfterGc.accumulateAndGet(used, Math::max);
                }
              },
              null,
              null);
    }
    AtomicLong sampledPeak = new AtomicLong();
    Thread sampler =
        new Thread(
            () -> {
              var memory = ManagementFactory.getMemoryMXBean();
              while (!Thread.currentThread().isInterrupted()) {
                sampledPeak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                  Thread.sleep(10);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();

    CompareConfig config = CompareConfig.load(Path.of(args[0]));
    long start = System.nanoTime();
    CompareRun.Summary summary = new CompareRun(config, true).run();
    long nanos = System.nanoTime() - start;
    sampler.interrupt();

    long peak = 0;
    List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    for (MemoryPoolMXBean pool : pools) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    long rows = summary.tables().stream().mapToLong(CompareRun.TableDone::rows).sum();
    long compared = summary.tables().stream().mapToLong(CompareRun.TableDone::comparedRows).sum();
    String gcs =
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(g -> g.getName() + ":" + g.getCollectionCount())
            .collect(Collectors.joining(","));
    System.out.printf(
        "RESULT complete=%s rows=%d compared=%d nanos=%d peakHeap=%d sampledPeakHeap=%d"
            + " liveAfterGc=%d maxHeap=%d collections=%s%n",
        summary.complete(),
        rows,
        compared,
        nanos,
        peak,
        sampledPeak.get(),
        liveAfterGc.get(),
        Runtime.getRuntime().maxMemory(),
        gcs.replace(' ', '_'));
    System.out.flush();
    System.exit(summary.complete() ? 0 : 1);
  }
}
