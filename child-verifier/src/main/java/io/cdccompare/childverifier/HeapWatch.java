package io.cdccompare.childverifier;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The heap this JVM uses over a window, as bench's {@code CompareHeapProbe} measures it: the
 * largest used heap sampled every {@value #PERIOD_MS} ms (a simultaneous figure that may miss a
 * short peak), and the largest used heap right after a collection, from the collectors'
 * notifications (what the process really keeps). {@link #reset()} starts a new window. Thread-safe;
 * one per JVM.
 */
public final class HeapWatch {
  private static final long PERIOD_MS = 50;

  private final AtomicLong sampledPeak = new AtomicLong();
  private final AtomicLong liveAfterGc = new AtomicLong();
  private final Set<String> heapPools =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(p -> p.getType() == MemoryType.HEAP)
          .map(MemoryPoolMXBean::getName)
          .collect(Collectors.toSet());

  /** What the window saw, in bytes. */
  public record Heap(long sampledPeak, long liveAfterGc, long max) {
    /** The {@code HEAP ...} line a child prints. */
    String line() {
      return "HEAP sampledPeak=" + sampledPeak + " liveAfterGc=" + liveAfterGc + " max=" + max;
    }

    /** Parses {@link #line()}. */
    static Heap parse(String line) {
      Map<String, Long> v =
          java.util.Arrays.stream(line.substring("HEAP ".length()).split(" "))
              .map(kv -> kv.split("=", 2))
              .collect(Collectors.toMap(kv -> kv[0], kv -> Long.parseLong(kv[1])));
      return new Heap(v.get("sampledPeak"), v.get("liveAfterGc"), v.get("max"));
    }
  }

  private HeapWatch() {}

  /** Starts watching (a daemon sampling thread and a listener on every collector). */
  public static HeapWatch start() {
    HeapWatch watch = new HeapWatch();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())) {
                  watch.afterGc(
                      GarbageCollectionNotificationInfo.from(
                          (CompositeData) notification.getUserData()));
                }
              },
              null,
              null);
    }
    Thread sampler =
        new Thread(
            () -> {
              var memory = ManagementFactory.getMemoryMXBean();
              while (true) {
                watch.sampledPeak.accumulateAndGet(
                    memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                  Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "heap-watch");
    sampler.setDaemon(true);
    sampler.start();
    return watch;
  }

  private void afterGc(GarbageCollectionNotificationInfo info) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    liveAfterGc.accumulateAndGet(used, Math::max);
  }

  /** Starts a new window. */
  public void reset() {
    sampledPeak.set(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    liveAfterGc.set(0);
  }

  /** The window so far. */
  public Heap heap() {
    return new Heap(sampledPeak.get(), liveAfterGc.get(), Runtime.getRuntime().maxMemory());
  }
}
