package io.cdccompare.capture;

import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.core.table.TableName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The capture's meters ({@link MetricNames}: {@code capture.*}), one set per source table, created
 * once and cached so the per-event cost is a map look-up and an increment. Labels: the table only.
 */
public final class CaptureMeters {
  private final MeterRegistry registry;
  private final Map<TableName, Table> tables = new ConcurrentHashMap<>();
  private final AtomicInteger healthy = new AtomicInteger(1);

  /** The meters of one table. */
  static final class Table {
    final Counter events;
    final Counter markers;
    final AtomicLong lagMillis = new AtomicLong();

    private Table(MeterRegistry registry, TableName table) {
      String name = table.toString();
      events =
          Counter.builder(MetricNames.CAPTURE_EVENTS.name())
              .description(MetricNames.CAPTURE_EVENTS.help())
              .tag("table", name)
              .register(registry);
      markers =
          Counter.builder(MetricNames.CAPTURE_MARKERS.name())
              .description(MetricNames.CAPTURE_MARKERS.help())
              .tag("table", name)
              .register(registry);
      Gauge.builder(MetricNames.CAPTURE_LAG.name(), lagMillis, l -> l.get() / 1000.0)
          .description(MetricNames.CAPTURE_LAG.help())
          .baseUnit(MetricNames.CAPTURE_LAG.unit())
          .tag("table", name)
          .register(registry);
    }

    /** A change sent whose source transaction committed at {@code commitMillis} (0: unknown). */
    void sent(long commitMillis, long nowMillis) {
      events.increment();
      if (commitMillis > 0) {
        lagMillis.set(Math.max(0, nowMillis - commitMillis));
      }
    }
  }

  public CaptureMeters(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder(MetricNames.CAPTURE_HEALTHY.name(), healthy, AtomicInteger::get)
        .description(MetricNames.CAPTURE_HEALTHY.help())
        .register(registry);
  }

  /** Meters that record nothing (tests, and a capture run without {@code --metrics-port}). */
  public static CaptureMeters none() {
    return new CaptureMeters(new CompositeMeterRegistry());
  }

  /** The registry, for binding the capture's Kafka clients. */
  MeterRegistry registry() {
    return registry;
  }

  /** Registers every table's meters up front, so a scrape shows them before the first change. */
  void tables(Iterable<TableName> captured) {
    captured.forEach(this::table);
  }

  Table table(TableName table) {
    return tables.computeIfAbsent(table, t -> new Table(registry, t));
  }

  /** The capture stopped by itself (a resync needed, a failure): {@code healthy} drops to 0. */
  void stoppedByItself() {
    healthy.set(0);
  }
}
