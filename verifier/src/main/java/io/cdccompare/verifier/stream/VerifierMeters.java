package io.cdccompare.verifier.stream;

import io.cdccompare.core.metrics.Metric;
import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One target's verifier meters ({@link MetricNames}: {@code apply.*}, {@code chunks.verified},
 * {@code rows}, {@code verify.duration}, {@code verdict.lag}, {@code alerts}). Meters are created
 * at first use and cached per label set, so the per-record cost is a map look-up and an increment.
 * Labels are bounded: target, topic, partition, task, table, state, outcome, code — never a key.
 * Thread-safe: every stream thread of the verifier records into the same instance.
 */
public final class VerifierMeters {
  /** Bucket bounds of the two duration histograms, in seconds. */
  static final double[] BUCKETS_SECONDS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

  private final MeterRegistry registry;
  private final String target;
  private final Map<String, Object> meters = new ConcurrentHashMap<>();

  public VerifierMeters(MeterRegistry registry, String target) {
    this.registry = registry;
    this.target = target;
  }

  /** Meters that record nothing (topology tests, a verifier without {@code --metrics-port}). */
  public static VerifierMeters none(String target) {
    return new VerifierMeters(new CompositeMeterRegistry(), target);
  }

  /** The meters of one partition of a table topic. */
  static final class PartitionMeters {
    final String topic;
    final int partition;
    final Counter applied;
    final AtomicLong position = new AtomicLong(-1);
    final AtomicLong lagRecords = new AtomicLong();
    final AtomicLong lagMillis = new AtomicLong();

    private PartitionMeters(MeterRegistry registry, String target, String topic, int partition) {
      this.topic = topic;
      this.partition = partition;
      Tags tags =
          Tags.of("target", target, "topic", topic, "partition", Integer.toString(partition));
      applied =
          Counter.builder(MetricNames.APPLY_ROWS.name())
              .description(MetricNames.APPLY_ROWS.help())
              .tags(tags)
              .register(registry);
      gauge(registry, MetricNames.APPLY_LAG_RECORDS, tags, lagRecords, AtomicLong::get);
      gauge(registry, MetricNames.APPLY_LAG_SECONDS, tags, lagMillis, l -> l.get() / 1000.0);
    }
  }

  PartitionMeters partition(String topic, int partition) {
    return cached(
        "p\n" + topic + "\n" + partition,
        k -> new PartitionMeters(registry, target, topic, partition));
  }

  /**
   * A verdict decided on this target: its chunk counted per state, its rows per outcome, how long
   * the judging took and how long after the CLOSE note was committed on the source it is published.
   */
  void verdict(PartitionVerdict verdict, String table, Duration judging, Duration sinceNoted) {
    String task = verdict.id().task();
    Tags chunk = Tags.of("task", task, "table", table, "target", target);
    counter(MetricNames.CHUNKS_VERIFIED, chunk.and("state", verdict.state().name())).increment();
    ChunkVerdict counts = verdict.verdict();
    rows(chunk, "matched", counts.matched());
    rows(chunk, "failed", counts.failed());
    rows(chunk, "missed", counts.missed());
    rows(chunk, "extra", counts.extra());
    rows(chunk, "in_flight", counts.inFlight());
    Tags byTable = Tags.of("target", target, "table", table);
    timer(MetricNames.VERIFY_DURATION, byTable).record(judging);
    if (!sinceNoted.isNegative()) {
      timer(MetricNames.VERDICT_LAG, byTable).record(sinceNoted);
    }
  }

  /** An alert this verifier raised. */
  void alert(String code) {
    counter(MetricNames.ALERTS, Tags.of("target", target, "code", code.toUpperCase(Locale.ROOT)))
        .increment();
  }

  private void rows(Tags chunk, String outcome, long count) {
    Counter counter = counter(MetricNames.ROWS, chunk.and("outcome", outcome));
    if (count > 0) {
      counter.increment(count);
    }
  }

  private Counter counter(Metric metric, Tags tags) {
    return cached(
        metric.name() + tags,
        k ->
            Counter.builder(metric.name())
                .description(metric.help())
                .tags(tags)
                .register(registry));
  }

  private Timer timer(Metric metric, Tags tags) {
    return cached(
        metric.name() + tags,
        k ->
            Timer.builder(metric.name())
                .description(metric.help())
                .tags(tags)
                .serviceLevelObjectives(slos())
                .register(registry));
  }

  private static Duration[] slos() {
    Duration[] slos = new Duration[BUCKETS_SECONDS.length];
    for (int i = 0; i < slos.length; i++) {
      slos[i] = Duration.ofNanos((long) (BUCKETS_SECONDS[i] * TimeUnit.SECONDS.toNanos(1)));
    }
    return slos;
  }

  static <T> void gauge(
      MeterRegistry registry,
      Metric metric,
      Tags tags,
      T state,
      java.util.function.ToDoubleFunction<T> value) {
    Gauge.builder(metric.name(), state, value)
        .description(metric.help())
        .baseUnit(metric.unit().isEmpty() ? null : metric.unit())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  @SuppressWarnings("unchecked")
  private <T> T cached(String key, Function<String, T> create) {
    return (T) meters.computeIfAbsent(key, create);
  }

  /** The registry, for the healthy gauge and the Kafka Streams binder. */
  public MeterRegistry registry() {
    return registry;
  }

  public String target() {
    return target;
  }
}
