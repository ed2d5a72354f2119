package io.cdccompare.bench.e2e;

import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end benchmark: what a user waits for, on the embedded environment or on external
 * servers. Per table, one after the other: N rows bulk-loaded on the source while the capture and
 * the verifiers run (the initial copy, streamed and applied), then a full compare at deep=100 in
 * this JVM with the capture and the verifiers running and no other load, followed until every
 * target's last chunk result arrived on the results topic. {@link #close()} (also from the shutdown
 * hook on Ctrl-C or SIGTERM) stops a running compare, the verifiers, the capture and the servers.
 * One caller.
 */
public final class EndToEndBenchmark implements StoppableBenchmark<List<TableRun>> {
  private final E2eOptions options;
  private volatile Servers servers;
  private volatile Pipeline pipeline;
  private Instruments instruments;
  private volatile CompareRun compare;
  private volatile boolean closed;
  private Duration sourceClockAhead = Duration.ZERO;

  public EndToEndBenchmark(E2eOptions options) {
    this.options = options;
  }

  /** Runs every table; returns what was measured. */
  @Override
  public List<TableRun> run() throws Exception {
    say(
        options.external() == null
            ? "starting the embedded environment (Kafka, registry, source PostgreSQL, targets "
                + options.targets()
                + ")"
            : "using the external servers of " + options.external());
    servers =
        options.external() == null
            ? Servers.embedded(options.targets())
            : Servers.external(options.external(), options.targets());
    requireOpen();
    say("targets: " + servers.targets() + "; topic prefix " + servers.topicPrefix());
    List<BenchTable> tables = new ArrayList<>(options.tables());
    if (options.warmupRows() > 0) {
      tables.add(0, BenchTable.WARMUP);
    }
    pipeline = new Pipeline(servers, tables);
    pipeline.createTables();
    instruments = new Instruments(servers, pipeline);
    if (options.preload()) {
      preload(tables);
    }
    sourceClockAhead = SourceClock.ahead(servers.source());
    say("source clock ahead of this machine's by " + sourceClockAhead.toNanos() / 1e6 + " ms");
    pipeline.startCapture();
    say("capture streaming (snapshot=never); starting one verifier JVM per target");
    pipeline.startVerifiers(options.verifierSettings());
    say("verifiers running");
    if (options.warmupRows() > 0) {
      say("warm-up (not reported): copy and compare of " + options.warmupRows() + " rows");
      measure(BenchTable.WARMUP, options.warmupRows());
    }
    List<TableRun> runs = new ArrayList<>();
    for (BenchTable table : options.tables()) {
      requireOpen();
      runs.add(measure(table, options.rows()));
    }
    return runs;
  }

  private long rowsOf(BenchTable table) {
    return table == BenchTable.WARMUP ? options.warmupRows() : options.rows();
  }

  /** {@code --preload}: the rows on the source and on every target, before the capture starts. */
  private void preload(List<BenchTable> tables) throws Exception {
    for (BenchTable table : tables) {
      long rows = rowsOf(table);
      say(
          String.format(
              Locale.ROOT,
              "%s: preloading %,d rows on the source and every target (no copy)",
              pipeline.sourceName(table),
              rows));
      new LoadedTables(servers, pipeline).preload(table, rows);
    }
  }

  private TableRun measure(BenchTable table, long rows) throws Exception {
    Copied copied = options.preload() ? preloaded(table) : copy(table, rows);
    LoadedTables loaded = new LoadedTables(servers, pipeline);
    loaded.requireCounts(table, rows);
    loaded.settle(table);
    return compare(table, rows, copied);
  }

  /** The initial copy of one load: when it was committed, when each target held it. */
  private record Copied(
      Instant committedAt, CopyWatch.Copy copy, int partitions, TableRun.Window window) {}

  /** A preloaded table: nothing copied, only the topic's partition count is known. */
  private Copied preloaded(BenchTable table) throws Exception {
    try (CopyWatch watch = new CopyWatch(servers, pipeline, table)) {
      return new Copied(null, null, watch.partitions(), null);
    }
  }

  private Copied copy(BenchTable table, long rows) throws Exception {
    say(
        String.format(
            Locale.ROOT, "%s: loading %,d rows on the source", pipeline.sourceName(table), rows));
    try (CopyWatch watch = new CopyWatch(servers, pipeline, table);
        Connection c = servers.source().connect()) {
      c.setAutoCommit(false);
      TargetKind.execute(c, table.load(TargetKind.POSTGRES, pipeline.sourceSql(table), rows));
      Instruments.Window window = instruments.start();
      c.commit();
      Instant committedAt = Instant.now();
      say("  committed; waiting until every target holds the rows");
      CopyWatch.Copy copy = watch.await(rows, Duration.ofMinutes(5).plusSeconds(rows / 1_000));
      Instant last = copy.appliedAt().values().stream().max(Instant::compareTo).orElseThrow();
      return new Copied(
          committedAt, copy, watch.partitions(), window.end(seconds(committedAt, last)));
    }
  }

  private TableRun compare(BenchTable table, long rows, Copied copied) throws Exception {
    String name = pipeline.sourceName(table);
    say(String.format(Locale.ROOT, "%s: full compare, deep=100", name));
    Map<String, String> task = pipeline.task(table, options.chunk(), options.compareSettings());
    try (VerdictWatch watch =
        VerdictWatch.arm(
            servers.bootstrapServers(),
            servers.registryUrl(),
            pipeline.resultsTopic(),
            pipeline.topicOf(table))) {
      Instruments.Window window = instruments.start();
      compare = new CompareRun(CompareConfig.of(task), true);
      long startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      CompareRun.Summary summary = compare.run();
      double producerSeconds = (System.nanoTime() - start) / 1e9;
      compare = null;
      requireOpen();
      CompareRun.TableDone done = summary.tables().get(0);
      if (!summary.complete() || done.rows() != rows || done.comparedRows() != rows) {
        throw new IllegalStateException("the compare of " + name + " gave " + summary);
      }
      say(
          String.format(
              Locale.ROOT,
              "  producer done in %.2f s (%d chunks); waiting for every target's results",
              producerSeconds,
              done.chunks()));
      Map<String, List<VerdictWatch.Verdict>> verdicts = new LinkedHashMap<>();
      long lastMs = awaitVerdicts(watch, done, copied.partitions(), verdicts);
      TableRun.Window compareWindow = window.end((lastMs - startMs) / 1000.0);
      awaitNotes(watch, done);
      List<TableRun.TargetFigures> figures = new ArrayList<>();
      for (Servers.Target target : servers.targets()) {
        List<VerdictWatch.Verdict> mine = verdicts.get(target.name());
        long lastOfTarget =
            mine.stream().mapToLong(VerdictWatch.Verdict::arrivedMs).max().orElse(0);
        figures.add(
            new TableRun.TargetFigures(
                target.name(),
                target.kind().label(),
                copied.copy() == null
                    ? Double.NaN
                    : seconds(copied.committedAt(), copied.copy().appliedAt().get(target.name())),
                (lastOfTarget - startMs) / 1000.0,
                VerdictLags.of(mine, watch::notedAt, sourceClockAhead, done.chunks()),
                VerdictWatch.summary(mine, rows)));
      }
      return new TableRun(
          table,
          rows,
          copied.partitions(),
          done.chunks(),
          copied.copy() == null
              ? Double.NaN
              : seconds(copied.committedAt(), copied.copy().capturedAt()),
          producerSeconds,
          figures,
          copied.window(),
          compareWindow);
    }
  }

  /** Waits for every target's results of the run; returns when the last one arrived (ms). */
  private long awaitVerdicts(
      VerdictWatch watch,
      CompareRun.TableDone done,
      int partitions,
      Map<String, List<VerdictWatch.Verdict>> verdicts)
      throws Exception {
    long expected = done.chunks() * partitions;
    long deadline =
        System.nanoTime() + Duration.ofMinutes(10).plusSeconds(done.rows() / 1_000).toNanos();
    long nextProgress = System.currentTimeMillis() + 5_000;
    while (true) {
      boolean all = true;
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (Servers.Target target : servers.targets()) {
        List<VerdictWatch.Verdict> mine = watch.of(done.runId(), target.name());
        counts.put(target.name(), mine.size());
        verdicts.put(target.name(), mine);
        all &= mine.size() >= expected;
      }
      if (all) {
        return verdicts.values().stream()
            .flatMap(List::stream)
            .mapToLong(VerdictWatch.Verdict::arrivedMs)
            .max()
            .orElseThrow();
      }
      requireOpen();
      watch.requireHealthy();
      pipeline.requireHealthy();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "results incomplete: " + counts + " of " + expected + " per target");
      }
      if (System.currentTimeMillis() > nextProgress) {
        nextProgress += 5_000;
        say("  results so far " + counts + " of " + expected + " per target");
      }
      Thread.sleep(50);
    }
  }

  /** The CLOSE markers come before the results in the stream; this only waits for the reader. */
  private void awaitNotes(VerdictWatch watch, CompareRun.TableDone done) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (watch.notes(done.runId()) < done.chunks()) {
      watch.requireHealthy();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "read " + watch.notes(done.runId()) + " CLOSE markers of " + done.chunks());
      }
      Thread.sleep(50);
    }
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the benchmark was stopped");
    }
  }

  static void say(String line) {
    System.err.println(line);
  }

  /** Stops a running compare, the verifiers, the capture and the servers. Idempotent. */
  @Override
  public void close() {
    close(Duration.ofSeconds(25));
  }

  /**
   * Stops everything from a shutdown hook (Ctrl-C, SIGTERM): the embedded environment's own hook
   * stops the broker at the same time, so the verifiers get a short grace.
   */
  @Override
  public void stop() {
    close(Duration.ofSeconds(5));
  }

  /** Whether {@link #close()} or {@link #stop()} was called. */
  @Override
  public boolean stopped() {
    return closed;
  }

  private synchronized void close(Duration verifierGrace) {
    if (closed) {
      return;
    }
    closed = true;
    CompareRun running = compare;
    if (running != null) {
      running.stop();
    }
    Pipeline p = pipeline;
    if (p != null) {
      p.close(verifierGrace);
    }
    Servers s = servers;
    if (s != null) {
      s.close();
    }
  }
}
