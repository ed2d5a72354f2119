package io.cdccompare.bench.e2e;

import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
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
public final class EndToEndBenchmark implements AutoCloseable {
  private static final String THIS_JVM = ProcessCpuMeter.SELF;

  private final E2eOptions options;
  private final HeapWatch heap = HeapWatch.start();
  private volatile Servers servers;
  private volatile Pipeline pipeline;
  private volatile CompareRun compare;
  private volatile boolean closed;
  private Duration sourceClockAhead = Duration.ZERO;

  public EndToEndBenchmark(E2eOptions options) {
    this.options = options;
  }

  /** Runs every table; returns what was measured. */
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
    sourceClockAhead = sourceClockAhead(servers.source());
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

  private TableRun measure(BenchTable table, long rows) throws Exception {
    String name = pipeline.sourceName(table);
    say(String.format(Locale.ROOT, "%s: loading %,d rows on the source", name, rows));
    CopyWatch.Copy copy;
    TableRun.Window copyWindow;
    Instant committedAt;
    int partitions;
    try (CopyWatch watch = new CopyWatch(servers, pipeline, table);
        Connection c = servers.source().connect()) {
      partitions = watch.partitions();
      c.setAutoCommit(false);
      TargetKind.execute(c, table.load(pipeline.sourceSql(table), rows));
      resetHeaps();
      Map<String, Map<String, Long>> threadsBefore = threadCpu();
      ProcessCpuMeter meter = ProcessCpuMeter.start(processes());
      c.commit();
      committedAt = Instant.now();
      say("  committed; waiting until every target holds the rows");
      copy = watch.await(rows, Duration.ofMinutes(5).plusSeconds(rows / 1_000));
      Instant last = copy.appliedAt().values().stream().max(Instant::compareTo).orElseThrow();
      copyWindow =
          new TableRun.Window(
              seconds(committedAt, last), meter.stop(), heaps(), threadSeconds(threadsBefore));
    }
    requireCounts(table, rows);
    settle(table);

    say(String.format(Locale.ROOT, "%s: full compare, deep=100", name));
    Map<String, String> task = pipeline.task(table, options.chunk());
    CompareRun.TableDone done;
    double producerSeconds;
    long startMs;
    Map<String, List<VerdictWatch.Verdict>> verdicts = new LinkedHashMap<>();
    TableRun.Window compareWindow;
    try (VerdictWatch watch =
        VerdictWatch.arm(
            servers.bootstrapServers(),
            servers.registryUrl(),
            pipeline.resultsTopic(),
            pipeline.topicOf(table))) {
      resetHeaps();
      Map<String, Map<String, Long>> threadsBefore = threadCpu();
      ProcessCpuMeter meter = ProcessCpuMeter.start(processes());
      compare = new CompareRun(CompareConfig.of(task), true);
      startMs = System.currentTimeMillis();
      long start = System.nanoTime();
      CompareRun.Summary summary = compare.run();
      producerSeconds = (System.nanoTime() - start) / 1e9;
      compare = null;
      requireOpen();
      done = summary.tables().get(0);
      if (!summary.complete() || done.rows() != rows || done.comparedRows() != rows) {
        throw new IllegalStateException("the compare of " + name + " gave " + summary);
      }
      say(
          String.format(
              Locale.ROOT,
              "  producer done in %.2f s (%d chunks); waiting for every target's results",
              producerSeconds,
              done.chunks()));
      long lastMs = awaitVerdicts(watch, done, partitions, verdicts);
      compareWindow =
          new TableRun.Window(
              (lastMs - startMs) / 1000.0, meter.stop(), heaps(), threadSeconds(threadsBefore));
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
                seconds(committedAt, copy.appliedAt().get(target.name())),
                (lastOfTarget - startMs) / 1000.0,
                VerdictLags.of(mine, watch::notedAt, sourceClockAhead, done.chunks()),
                verdict(mine, rows)));
      }
      return new TableRun(
          table,
          rows,
          partitions,
          done.chunks(),
          seconds(committedAt, copy.capturedAt()),
          producerSeconds,
          figures,
          copyWindow,
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

  /** "in sync", or what the results of a target say otherwise. */
  private static String verdict(List<VerdictWatch.Verdict> results, long rows) {
    long matched = results.stream().mapToLong(VerdictWatch.Verdict::matched).sum();
    long differences = results.stream().mapToLong(VerdictWatch.Verdict::differences).sum();
    long inFlight = results.stream().mapToLong(VerdictWatch.Verdict::inFlight).sum();
    long notVerified = results.stream().filter(v -> !v.state().equals("VERIFIED")).count();
    if (matched == rows && differences == 0 && inFlight == 0 && notVerified == 0) {
      return "in sync";
    }
    return String.format(
        Locale.ROOT,
        "NOT IN SYNC: matched %d of %d, differences %d, in flight %d, not verified %d",
        matched,
        rows,
        differences,
        inFlight,
        notVerified);
  }

  private void requireCounts(BenchTable table, long rows) throws SQLException {
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        long count = TargetKind.count(c, pipeline.targetSql(target, table));
        if (count != rows) {
          throw new IllegalStateException(
              "target " + target.name() + " holds " + count + " rows of " + rows);
        }
      }
    }
  }

  /**
   * Statistics and visibility maps after the load, and a checkpoint of each PostgreSQL, so that the
   * compare is measured on settled tables rather than on the first reads after a bulk load (setting
   * hint bits) with a spread checkpoint running beside it. CHECKPOINT needs a superuser (or
   * pg_checkpoint); on external servers a refusal is printed and ignored.
   */
  private void settle(BenchTable table) throws SQLException {
    try (Connection c = servers.source().connect()) {
      TargetKind.POSTGRES.settle(c, pipeline.sourceSql(table));
      checkpoint(c, "source");
    }
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        target.kind().settle(c, pipeline.targetSql(target, table));
        if (target.kind() == TargetKind.POSTGRES) {
          checkpoint(c, "target " + target.name());
        }
      }
    }
  }

  private static void checkpoint(Connection c, String where) {
    try {
      TargetKind.execute(c, "CHECKPOINT");
    } catch (SQLException e) {
      say("  CHECKPOINT refused on " + where + " (" + e.getMessage() + "); going on");
    }
  }

  /** How far the source's clock is ahead of this machine's (its notedAt is the source's now()). */
  private static Duration sourceClockAhead(Servers.Source source) throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement()) {
      Duration best = null;
      long bestRoundTrip = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        Instant before = Instant.now();
        Instant server;
        try (ResultSet rs = s.executeQuery("SELECT clock_timestamp()")) {
          rs.next();
          server = rs.getObject(1, OffsetDateTime.class).toInstant();
        }
        Instant after = Instant.now();
        long roundTrip = Duration.between(before, after).toNanos();
        if (roundTrip < bestRoundTrip) {
          bestRoundTrip = roundTrip;
          best = Duration.between(before.plusNanos(roundTrip / 2), server);
        }
      }
      return best;
    }
  }

  /** The processes to measure: the servers' and each verifier JVM. */
  private Map<String, List<Long>> processes() {
    Map<String, List<Long>> roots = new LinkedHashMap<>(servers.serverProcesses());
    for (ChildVerifier v : pipeline.verifiers()) {
      roots.put(verifierPart(v.target()), List.of(v.pid()));
    }
    return roots;
  }

  static String verifierPart(String target) {
    return "verifier " + target + " JVM";
  }

  private void resetHeaps() throws Exception {
    heap.reset();
    for (ChildVerifier v : pipeline.verifiers()) {
      v.resetHeap();
    }
  }

  private Map<String, HeapWatch.Heap> heaps() throws Exception {
    Map<String, HeapWatch.Heap> heaps = new LinkedHashMap<>();
    heaps.put(THIS_JVM, heap.heap());
    for (ChildVerifier v : pipeline.verifiers()) {
      heaps.put(verifierPart(v.target()), v.heap());
    }
    return heaps;
  }

  /** CPU nanoseconds by thread group of this JVM and of each verifier JVM, so far. */
  private Map<String, Map<String, Long>> threadCpu() throws Exception {
    Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
    threads.put(THIS_JVM, ThreadCpu.snapshot());
    for (ChildVerifier v : pipeline.verifiers()) {
      threads.put(verifierPart(v.target()), v.threadCpu());
    }
    return threads;
  }

  private Map<String, Map<String, Double>> threadSeconds(Map<String, Map<String, Long>> before)
      throws Exception {
    Map<String, Map<String, Double>> seconds = new LinkedHashMap<>();
    threadCpu()
        .forEach((jvm, after) -> seconds.put(jvm, ThreadCpu.between(before.get(jvm), after)));
    return seconds;
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
  public void stop() {
    close(Duration.ofSeconds(5));
  }

  /** Whether {@link #close()} or {@link #stop()} was called. */
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
