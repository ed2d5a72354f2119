package io.cdccompare.bench.e2e;

import io.cdccompare.childverifier.HeapWatch;
import io.cdccompare.childverifier.ThreadCpu;
import java.util.List;
import java.util.Map;

/**
 * What was measured for one table: its initial copy and its full compare, per target.
 *
 * @param rows rows loaded on the source (and compared)
 * @param partitions partitions of the table topic
 * @param chunks chunks the compare noted
 * @param captureSeconds from the load's commit until the topic held every change (polled every 100
 *     ms); NaN with {@code --preload}
 * @param producerSeconds wall time of {@code CompareRun.run()}: the producer alone
 * @param copy the copy window (load commit → last target applied): CPU and heap; null with {@code
 *     --preload}
 * @param compare the compare window (start of {@code CompareRun.run()} → last result of the last
 *     target): CPU and heap
 */
public record TableRun(
    BenchTable table,
    long rows,
    int partitions,
    long chunks,
    double captureSeconds,
    double producerSeconds,
    List<TargetFigures> targets,
    Window copy,
    Window compare) {

  /** One target's figures for the table. */
  public record TargetFigures(
      String target,
      String kind,
      double copySeconds,
      double lastVerdictSeconds,
      VerdictLags lags,
      String verdict) {}

  /**
   * A measured window.
   *
   * @param cpuSeconds CPU seconds per process part ({@link ProcessCpuMeter})
   * @param heaps heap per JVM this benchmark runs (this one and each verifier's)
   * @param threadSeconds per JVM, CPU seconds by thread group ({@link ThreadCpu})
   */
  public record Window(
      double seconds,
      Map<String, Double> cpuSeconds,
      Map<String, HeapWatch.Heap> heaps,
      Map<String, Map<String, Double>> threadSeconds) {}
}
