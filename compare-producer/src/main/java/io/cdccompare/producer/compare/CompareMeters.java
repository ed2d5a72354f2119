package io.cdccompare.producer.compare;

import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.core.table.TableName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A running compare's meters ({@link MetricNames}: {@code compare.rows}, {@code compare.progress},
 * {@code hashes.waiting}, {@code hashes.waiting.size}). Rows and progress are counted per table as
 * chunks close. The hash records waiting for a target are the ones this run wrote whose verdict
 * (same run, table, chunk and table partition) the target has not published yet, as flow control
 * sees the results topic: counted only when the task names its {@code targets}. Thread-safe: the
 * run's thread, its close thread and flow control's reader record into it.
 */
public final class CompareMeters {
  private final MeterRegistry registry;
  private final String task;
  private final Map<TableName, Table> tables = new ConcurrentHashMap<>();

  /** Per target: the written hash records its verdicts have not covered yet. */
  private final Map<String, Backlog> backlogs = new HashMap<>();

  /** Identity of the hash records of one chunk in one table partition. */
  private record Part(String runId, String table, long chunk, int partition) {}

  private static final class Backlog {
    final AtomicLong records = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final Map<Part, long[]> waiting = new HashMap<>(); // part → {records, bytes}
  }

  private static final class Table {
    final Counter rows;
    final AtomicLong progressPermille = new AtomicLong();
    long rowsCounted;
    long estimated;

    Table(MeterRegistry registry, String task, TableName table) {
      rows =
          Counter.builder(MetricNames.COMPARE_ROWS.name())
              .description(MetricNames.COMPARE_ROWS.help())
              .tags("task", task, "table", table.toString())
              .register(registry);
      Gauge.builder(
              MetricNames.COMPARE_PROGRESS.name(), progressPermille, p -> p.get() / 1_000_000.0)
          .description(MetricNames.COMPARE_PROGRESS.help())
          .baseUnit(MetricNames.COMPARE_PROGRESS.unit())
          .tags("task", task, "table", table.toString())
          .register(registry);
    }
  }

  public CompareMeters(MeterRegistry registry, String task) {
    this.registry = registry;
    this.task = task;
  }

  MeterRegistry registry() {
    return registry;
  }

  /** Meters that record nothing (tests, a run without {@code --metrics-port}). */
  public static CompareMeters none(String task) {
    return new CompareMeters(new CompositeMeterRegistry(), task);
  }

  /** A table's part of the run starts; {@code rowsDone} were read in an earlier, stopped part. */
  void tableStarted(TableName table, long estimatedRows, long rowsDone) {
    Table t = tables.computeIfAbsent(table, k -> new Table(registry, task, k));
    t.rowsCounted = rowsDone;
    t.estimated = estimatedRows;
    progress(t, rowsDone, false);
  }

  /** The table's closed chunks add up to {@code rowsDone} rows read. */
  void rowsDone(TableName table, long rowsDone, boolean tableDone) {
    Table t = tables.get(table);
    if (t == null) {
      return;
    }
    if (rowsDone > t.rowsCounted) {
      t.rows.increment(rowsDone - t.rowsCounted);
      t.rowsCounted = rowsDone;
    }
    progress(t, rowsDone, tableDone);
  }

  private static void progress(Table t, long rowsDone, boolean done) {
    long total = Math.max(t.estimated, rowsDone);
    double ratio = done ? 1.0 : total == 0 ? 0.0 : (double) rowsDone / total;
    t.progressPermille.set(Math.round(ratio * 1_000_000));
  }

  /** Starts counting the hash records waiting for these targets (flow control is on). */
  synchronized void waitFor(List<String> targets) {
    for (String target : targets) {
      backlogs.computeIfAbsent(
          target,
          t -> {
            Backlog b = new Backlog();
            Gauge.builder(MetricNames.HASHES_WAITING.name(), b.records, AtomicLong::get)
                .description(MetricNames.HASHES_WAITING.help())
                .tags("target", t, "task", task)
                .register(registry);
            Gauge.builder(MetricNames.HASHES_WAITING_BYTES.name(), b.bytes, AtomicLong::get)
                .description(MetricNames.HASHES_WAITING_BYTES.help())
                .baseUnit(MetricNames.HASHES_WAITING_BYTES.unit())
                .tags("target", t, "task", task)
                .register(registry);
            return b;
          });
    }
  }

  /** A hash record of this run was written and acknowledged. */
  synchronized void hashRecordWritten(
      String runId, String table, long chunk, int partition, long bytes) {
    Part part = new Part(runId, table, chunk, partition);
    for (Backlog b : backlogs.values()) {
      long[] held = b.waiting.computeIfAbsent(part, k -> new long[2]);
      held[0]++;
      held[1] += bytes;
      b.records.incrementAndGet();
      b.bytes.addAndGet(bytes);
    }
  }

  /** {@code target} published the verdict of a chunk in a table partition. */
  synchronized void verdictPublished(
      String target, String runId, String table, long chunk, int partition) {
    Backlog b = backlogs.get(target);
    if (b == null) {
      return;
    }
    Part part = new Part(runId, table, chunk, partition);
    long[] held = b.waiting.remove(part);
    if (held != null) {
      b.records.addAndGet(-held[0]);
      b.bytes.addAndGet(-held[1]);
    }
  }
}
