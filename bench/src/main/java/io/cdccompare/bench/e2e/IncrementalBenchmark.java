package io.cdccompare.bench.e2e;

import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.producer.compare.IncrementalRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Incremental against full, in one process tree and one run: a table of N rows preloaded on the
 * source and on every target, the capture and one verifier JVM per target running ({@link
 * Pipeline}); per round, a full compare at deep=100 timed to its last verdict on every target, then
 * K keys changed on the source and applied by every target ({@link KeyChanges}), then an
 * incremental run ({@link IncrementalRun}, what {@code compare run --kind incremental} runs) timed
 * the same way. "Done" is the same for both: every target published every verdict of the run —
 * chunks × partitions chunk results with the run's id on the results topic, read by a consumer
 * armed at the topic's end before the run ({@link VerdictWatch}) — and the time is from the start
 * of {@code run()} to the arrival of the last of them here. {@link #close()} stops everything it
 * started. One caller.
 */
public final class IncrementalBenchmark
    implements StoppableBenchmark<List<IncrementalBenchmark.Round>> {
  private final IncrementalOptions options;
  private volatile Servers servers;
  private volatile Pipeline pipeline;
  private volatile boolean closed;
  private Instruments instruments;
  private Duration sourceClockAhead = Duration.ZERO;

  /** A timed run to its last verdict. */
  public record Timed(
      String runId,
      long chunks,
      long compared,
      double producerSeconds,
      double lastVerdictSeconds,
      Map<String, Double> lastVerdictByTarget,
      Map<String, String> verdicts,
      TableRun.Window window) {}

  /**
   * When the incremental run reached each step, in ms from the start of {@code run()}; NaN when a
   * step did not log. Per target: CLOSE noted on the source (its {@code notedAt}), the CLOSE marker
   * in the topic (the latest of its partitions' record timestamps), the verdict stored (latest
   * {@code verifiedAt}) and the last result's arrival here.
   */
  public record Phases(
      double rangeChecked,
      double keysRead,
      double keyListPrepared,
      double opened,
      double closed,
      double returned,
      Map<String, double[]> targets) {}

  /**
   * One round: a full run, the changes, an incremental run; {@code incrementalThreads} is the CPU
   * seconds of this JVM's threads by name over the incremental run until its last verdict was read
   * ({@link NativeThreads}).
   */
  public record Round(
      int round,
      long rows,
      KeyChanges.Changed changed,
      double appliedSeconds,
      Timed full,
      Timed incremental,
      Phases phases,
      Map<String, Double> incrementalThreads) {}

  public IncrementalBenchmark(IncrementalOptions options) {
    this.options = options;
  }

  /** Runs the warm-up and every round; returns the rounds measured. */
  @Override
  public List<Round> run() throws Exception {
    say("starting the embedded environment (Kafka, registry, source, targets " + options.targets());
    servers = Servers.embedded(options.targets());
    List<BenchTable> tables = new ArrayList<>();
    if (options.warmupRows() > 0) {
      tables.add(BenchTable.WARMUP);
    }
    tables.add(BenchTable.NARROW);
    pipeline = new Pipeline(servers, tables);
    pipeline.createTables();
    instruments = new Instruments(servers, pipeline);
    for (BenchTable table : tables) {
      preload(table, rowsOf(table));
    }
    sourceClockAhead = SourceClock.ahead(servers.source());
    pipeline.startCapture();
    say("capture streaming (snapshot=never); starting one verifier JVM per target");
    pipeline.startVerifiers(options.verifierSettings());
    say("verifiers running");
    try (RunPhases phases = new RunPhases()) {
      if (options.warmupRows() > 0) {
        long rows = options.warmupRows();
        int changed = (int) Math.min(options.changed(), rows / 10);
        say("warm-up (not reported): " + rows + " rows, " + changed + " changed keys");
        KeyChanges changes = new KeyChanges(servers, pipeline, BenchTable.WARMUP, rows);
        for (int i = 0; i < options.warmupRounds(); i++) {
          round(BenchTable.WARMUP, 0, rows, changes, changed, phases);
        }
      }
      List<Round> rounds = new ArrayList<>();
      KeyChanges changes = new KeyChanges(servers, pipeline, BenchTable.NARROW, options.rows());
      long rows = options.rows();
      for (int r = 1; r <= options.rounds(); r++) {
        requireOpen();
        Round round = round(BenchTable.NARROW, r, rows, changes, options.changed(), phases);
        rounds.add(round);
        rows += round.changed().inserts() - round.changed().deletes();
      }
      return rounds;
    }
  }

  private long rowsOf(BenchTable table) {
    return table == BenchTable.WARMUP ? options.warmupRows() : options.rows();
  }

  private void preload(BenchTable table, long rows) throws Exception {
    say(
        String.format(
            Locale.ROOT,
            "%s: preloading %,d rows on the source and every target",
            pipeline.sourceName(table),
            rows));
    new LoadedTables(servers, pipeline).preload(table, rows);
    LoadedTables loaded = new LoadedTables(servers, pipeline);
    loaded.requireCounts(table, rows);
    loaded.settle(table);
  }

  private Round round(
      BenchTable table, int round, long rows, KeyChanges changes, int k, RunPhases phases)
      throws Exception {
    Map<String, String> settings = pipeline.task(table, null, options.compareSettings());
    CompareConfig config = CompareConfig.of(settings);
    String name = pipeline.sourceName(table);
    say(
        String.format(
            Locale.ROOT, "%s round %d: full compare of %,d rows, deep=100", name, round, rows));
    Timed full = full(table, config, rows);
    say(
        String.format(
            Locale.ROOT,
            "  full: last verdict after %.2f s (producer %.2f s): %s",
            full.lastVerdictSeconds(),
            full.producerSeconds(),
            full.verdicts()));
    KeyChanges.Changed changed = changes.commit(k);
    double applied = changes.awaitApplied(changed, Duration.ofMinutes(5));
    say(
        String.format(
            Locale.ROOT,
            "  %d changes committed (%d updates, %d inserts, %d deletes), applied by every target"
                + " after %.2f s; incremental run",
            changed.total(),
            changed.updates(),
            changed.inserts(),
            changed.deletes(),
            applied));
    phases.clear();
    Incremental incremental = incremental(table, config, changed, phases);
    say(
        String.format(
            Locale.ROOT,
            "  incremental: last verdict after %.3f s (producer %.3f s): %s; ratio %.1f",
            incremental.timed().lastVerdictSeconds(),
            incremental.timed().producerSeconds(),
            incremental.timed().verdicts(),
            full.lastVerdictSeconds() / incremental.timed().lastVerdictSeconds()));
    return new Round(
        round,
        rows,
        changed,
        applied,
        full,
        incremental.timed(),
        incremental.phases(),
        incremental.threads());
  }

  private Timed full(BenchTable table, CompareConfig config, long rows) throws Exception {
    int partitions = partitions(table); // asked before the window: no client made inside it
    try (VerdictWatch watch = arm(table)) {
      Instruments.Window window = instruments.start();
      long startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      CompareRun.Summary summary = new CompareRun(config, true).run();
      double producerSeconds = (System.nanoTime() - start) / 1e9;
      CompareRun.TableDone done = summary.tables().get(0);
      if (!summary.complete() || done.rows() != rows || done.comparedRows() != rows) {
        throw new IllegalStateException("the full compare gave " + summary);
      }
      Map<String, List<VerdictWatch.Verdict>> verdicts =
          awaitVerdicts(watch, done.runId(), done.chunks() * partitions, rows);
      return timed(done.runId(), done.chunks(), rows, producerSeconds, startMs, verdicts, window);
    }
  }

  private record Incremental(Timed timed, Phases phases, Map<String, Double> threads) {}

  private Incremental incremental(
      BenchTable table, CompareConfig config, KeyChanges.Changed changed, RunPhases phases)
      throws Exception {
    int partitions = partitions(table); // asked before the window: no client made inside it
    try (VerdictWatch watch = arm(table)) {
      Instruments.Window window = instruments.start();
      long[] opened = {-1};
      Map<String, Double> threadsBefore = NativeThreads.snapshot();
      long startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      IncrementalRun.Summary summary =
          new IncrementalRun(config)
              .onChunkOpened(
                  (t, chunk) -> {
                    if (opened[0] < 0) {
                      opened[0] = System.nanoTime();
                    }
                  })
              .run();
      long returned = System.nanoTime();
      double producerSeconds = (returned - start) / 1e9;
      IncrementalRun.TableDone done = summary.tables().get(0);
      if (!summary.complete()
          || done.outcome() != IncrementalRun.Outcome.INCREMENTAL
          || done.keys() != changed.total()
          || done.absent() != changed.deletes()) {
        throw new IllegalStateException(
            "the incremental run gave " + summary + " for " + changed.total() + " changed keys");
      }
      Map<String, List<VerdictWatch.Verdict>> verdicts =
          awaitVerdicts(watch, done.runId(), done.chunks() * partitions, done.present());
      Map<String, Double> threads = NativeThreads.between(threadsBefore, NativeThreads.snapshot());
      Timed timed =
          timed(
              done.runId(),
              done.chunks(),
              done.present(),
              producerSeconds,
              startMs,
              verdicts,
              window);
      awaitNotes(watch, done.runId(), done.chunks());
      Map<String, double[]> targets = new LinkedHashMap<>();
      verdicts.forEach(
          (target, mine) -> {
            double noted = Double.NaN;
            double marker = Double.NEGATIVE_INFINITY;
            double verified = Double.NEGATIVE_INFINITY;
            double arrived = Double.NEGATIVE_INFINITY;
            for (VerdictWatch.Verdict v : mine) {
              Instant n = watch.notedAt(v.runId(), v.chunk());
              if (n != null) {
                double at = millis(n.minus(sourceClockAhead)) - startMs;
                noted = Double.isNaN(noted) ? at : Math.max(noted, at);
              }
              marker = Math.max(marker, v.markerTimestampMs() - startMs);
              verified = Math.max(verified, millis(v.verifiedAt()) - startMs);
              arrived = Math.max(arrived, v.arrivedMs() - startMs);
            }
            targets.put(target, new double[] {noted, marker, verified, arrived});
          });
      Phases p =
          new Phases(
              since(start, phases.first(RunPhases.INCREMENTAL, "kind=INCREMENTAL starts")),
              since(start, phases.first(RunPhases.INCREMENTAL, "changed_keys=")),
              since(start, phases.first(RunPhases.KEY_LIST, "starts tables=")),
              opened[0] < 0 ? Double.NaN : (opened[0] - start) / 1e6,
              since(start, phases.first(RunPhases.KEY_LIST, " done chunks=")),
              (returned - start) / 1e6,
              targets);
      return new Incremental(timed, p, threads);
    }
  }

  private Timed timed(
      String runId,
      long chunks,
      long compared,
      double producerSeconds,
      long startMs,
      Map<String, List<VerdictWatch.Verdict>> verdicts,
      Instruments.Window window)
      throws Exception {
    Map<String, Double> byTarget = new LinkedHashMap<>();
    Map<String, String> summaries = new LinkedHashMap<>();
    long last = 0;
    for (Map.Entry<String, List<VerdictWatch.Verdict>> e : verdicts.entrySet()) {
      long lastOfTarget =
          e.getValue().stream().mapToLong(VerdictWatch.Verdict::arrivedMs).max().orElseThrow();
      last = Math.max(last, lastOfTarget);
      byTarget.put(e.getKey(), (lastOfTarget - startMs) / 1000.0);
      summaries.put(e.getKey(), VerdictWatch.summary(e.getValue(), compared));
    }
    double seconds = (last - startMs) / 1000.0;
    return new Timed(
        runId,
        chunks,
        compared,
        producerSeconds,
        seconds,
        byTarget,
        summaries,
        window.end(seconds));
  }

  private VerdictWatch arm(BenchTable table) {
    return VerdictWatch.arm(
        servers.bootstrapServers(),
        servers.registryUrl(),
        pipeline.resultsTopic(),
        pipeline.topicOf(table));
  }

  private int partitions(BenchTable table) throws Exception {
    try (CopyWatch watch = new CopyWatch(servers, pipeline, table)) {
      return watch.partitions();
    }
  }

  /** Waits until every target published {@code expected} results of the run. */
  private Map<String, List<VerdictWatch.Verdict>> awaitVerdicts(
      VerdictWatch watch, String runId, long expected, long compared) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    long nextProgress = System.currentTimeMillis() + 5_000;
    while (true) {
      Map<String, List<VerdictWatch.Verdict>> verdicts = new LinkedHashMap<>();
      boolean all = true;
      for (Servers.Target target : servers.targets()) {
        List<VerdictWatch.Verdict> mine = watch.of(runId, target.name());
        verdicts.put(target.name(), mine);
        all &= mine.size() >= expected;
      }
      if (all) {
        return verdicts;
      }
      requireOpen();
      watch.requireHealthy();
      pipeline.requireHealthy();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("results of run " + runId + " incomplete: " + verdicts);
      }
      if (System.currentTimeMillis() > nextProgress) {
        nextProgress += 5_000;
        verdicts.forEach(
            (t, v) -> say("  results so far " + t + ": " + v.size() + " of " + expected));
      }
      Thread.sleep(5);
    }
  }

  /** The CLOSE markers come before the results in the stream; this only waits for the reader. */
  private static void awaitNotes(VerdictWatch watch, String runId, long chunks) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (watch.notes(runId) < chunks) {
      watch.requireHealthy();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "read " + watch.notes(runId) + " CLOSE markers of " + chunks);
      }
      Thread.sleep(20);
    }
  }

  private static double since(long start, OptionalLong at) {
    return at.isPresent() ? (at.getAsLong() - start) / 1e6 : Double.NaN;
  }

  private static double millis(Instant t) {
    return t.getEpochSecond() * 1000.0 + t.getNano() / 1e6;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the benchmark was stopped");
    }
  }

  /** Whether {@link #close()} was called. */
  @Override
  public boolean stopped() {
    return closed;
  }

  /** Stops everything (Ctrl-C, SIGTERM): the same as {@link #close()}. */
  @Override
  public void stop() {
    close();
  }

  static void say(String line) {
    System.err.println(line);
  }

  /** Stops the verifiers, the capture and the servers. Idempotent; also the shutdown hook's. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Pipeline p = pipeline;
    if (p != null) {
      p.close(Duration.ofSeconds(10));
    }
    Servers s = servers;
    if (s != null) {
      s.close();
    }
  }
}
