package io.cdccompare.bench;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.ParentWatchdog;
import io.cdccompare.embedded.PostgresServer;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;

/**
 * Throughput and heap of a full compare task at {@code deep=100} (every row read and hashed) over a
 * narrow table ({@code id bigint PRIMARY KEY, v int, s text}, 2-8 characters of text), against the
 * fastest the same server can hand the same rows out: {@code COPY t TO '/dev/null'} (server side,
 * the yardstick) and {@code COPY t TO STDOUT} read through pgjdbc's {@code CopyManager}
 * into a discarding stream (what a client gets at best). A plain main on the embedded environment,
 * not JMH.
 *
 * <p>For each row count: COPY warmed once, then the best of 3 of each form; the compare task run in
 * this JVM (wall time of {@link CompareRun#run()}, after three unmeasured compares of a table of a
 * million rows that warm the JIT; the CPU each part of the run used, from {@link CpuMeter}), then
 * again in a child JVM capped at {@code -Xmx256m} that reports its peak heap ({@link
 * CompareHeapProbe}). The capture is started once to prepare the source ({@code repi} tables,
 * publication, table topics) and stopped before anything is measured: no markers.
 *
 * <p>Arguments: {@code <rows>... [--chunk=N] [--gc=g1|serial] [--runs=N]} — row counts (default
 * {@code 1000000}), the compare chunk size (default: the task default), the child's collector
 * (default G1) and how many in-process compare runs to take the best of (default 1). Run: see
 * bench/README.md.
 */
public final class CompareThroughput {
  private static final int WARM_UP_ROWS = 1_000_000;
  private static final int WARM_UP_RUNS = 3;
  private static final int COPY_RUNS = 3;
  private static final String CHILD_HEAP = "256m";

  private CompareThroughput() {}

  /** What was measured for one table. */
  private record Result(
      long rows,
      double copyFileRate,
      double copyStdoutRate,
      double jdbcScanRate,
      double compareRate,
      Map<String, Double> cpu,
      Child child,
      String childFailure) {}

  /** What the child JVM reported. */
  private record Child(
      long rows,
      long compared,
      long nanos,
      long peakHeap,
      long sampledPeakHeap,
      long liveAfterGc,
      long maxHeap,
      String collections) {

    double rate() {
      return rows / (nanos / 1e9);
    }
  }

  public static void main(String[] args) throws Exception {
    List<Long> sizes = new ArrayList<>();
    Integer chunk = null;
    String gc = "g1";
    int runs = 1;
    for (String arg : args) {
      if (arg.startsWith("--chunk=")) {
        chunk = Integer.parseInt(arg.substring("--chunk=".length()));
      } else if (arg.startsWith("--gc=")) {
        gc = arg.substring("--gc=".length()).toLowerCase(Locale.ROOT);
        if (!gc.equals("g1") && !gc.equals("serial")) {
          throw new IllegalArgumentException("--gc=g1 or --gc=serial");
        }
      } else if (arg.startsWith("--runs=")) {
        runs = Integer.parseInt(arg.substring("--runs=".length()));
      } else {
        sizes.add(Long.parseLong(arg.replace("_", "")));
      }
    }
    if (sizes.isEmpty()) {
      sizes.add(1_000_000L);
    }
    Set<Long> distinct = new LinkedHashSet<>(sizes);

    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(
            EnumSet.of(Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES))) {
      PostgresServer pg = env.sourcePostgres();
      String db = pg.createDatabase("throughput");
      String prefix = "tput" + Long.toString(System.nanoTime() % 1_000_000, 36);
      Map<String, String> connection = new LinkedHashMap<>();
      connection.put("topic.prefix", prefix);
      connection.put("bootstrap.servers", env.kafka().bootstrapServers());
      connection.put("schema.registry.url", env.registry().confluentApiUrl());
      connection.put("source.hostname", pg.host());
      connection.put("source.port", Integer.toString(pg.port()));
      connection.put("source.database", db);
      connection.put("source.user", pg.user());
      connection.put("source.password", pg.password());

      // the tables, loaded before the capture creates its slot (so the slot keeps none of that WAL)
      List<String> tables = new ArrayList<>();
      tables.add(load(pg, db, "narrow_warmup", WARM_UP_ROWS));
      for (long n : distinct) {
        tables.add(load(pg, db, "narrow_" + n, n));
      }
      checkpoint(pg, db);
      String privilege = copyPrivilege(pg, db);
      System.err.println("source user " + pg.user() + ": " + privilege);

      prepareSource(connection, tables);

      Map<String, String> task = new LinkedHashMap<>(connection);
      task.put("deep", "100");
      task.put("progress", "off");
      if (chunk != null) {
        task.put("chunk", Integer.toString(chunk));
      }
      for (int i = 0; i < WARM_UP_RUNS; i++) {
        long nanos = compareInProcess(task, "public.narrow_warmup", "bench-warmup", WARM_UP_ROWS);
        System.err.printf(
            Locale.ROOT,
            "warm-up compare %d of %d, %d rows (not measured): %.0f rows/s%n",
            i + 1,
            WARM_UP_RUNS,
            WARM_UP_ROWS,
            WARM_UP_ROWS / (nanos / 1e9));
      }

      List<Result> results = new ArrayList<>();
      for (long n : sizes) {
        String table = "narrow_" + n;
        double copyFile = copyToFile(pg, db, table, n);
        double copyStdout = copyToStdout(pg, db, table, n);
        double jdbcScan = jdbcScan(pg, db, table, n);
        double compare = 0;
        Map<String, Double> cpu = null;
        for (int r = 0; r < runs; r++) {
          CpuMeter meter = CpuMeter.start();
          long nanos = compareInProcess(task, "public." + table, "bench-" + n + "-" + r, n);
          Map<String, Double> used = meter.stop();
          if (n / (nanos / 1e9) > compare) {
            compare = n / (nanos / 1e9);
            cpu = used;
          }
          System.err.printf(
              Locale.ROOT, "compare %d rows in-process: %.0f rows/s%n", n, n / (nanos / 1e9));
        }
        Child child = null;
        String failure = null;
        try {
          child = compareInChild(task, "public." + table, "bench-" + n + "-child", n, gc);
        } catch (IllegalStateException e) {
          failure = e.getMessage();
          System.err.println("child compare of " + n + " rows failed: " + failure);
        }
        results.add(new Result(n, copyFile, copyStdout, jdbcScan, compare, cpu, child, failure));
      }
      report(results, chunk, gc, runs, privilege);
    }
  }

  /** Creates and fills a narrow table fast: no key while loading, then the key, then VACUUM. */
  private static String load(PostgresServer pg, String db, String table, long rows)
      throws SQLException {
    long start = System.nanoTime();
    try (Connection c = pg.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id bigint NOT NULL, v int NOT NULL, s text NOT NULL)");
      s.execute(
          "INSERT INTO "
              + table
              + " SELECT g, (g::bigint * 7919 % 100000)::int, 's' || (g % 10000000)"
              + " FROM generate_series(1, "
              + rows
              + ") g");
      s.execute("ALTER TABLE " + table + " ADD PRIMARY KEY (id)");
      s.execute("VACUUM (FREEZE, ANALYZE) " + table);
    }
    System.err.printf(
        Locale.ROOT,
        "loaded %s: %d rows in %.1f s%n",
        table,
        rows,
        (System.nanoTime() - start) / 1e9);
    return "public." + table;
  }

  /**
   * Writes out what the loads left dirty, so that no checkpoint spread over the next minutes takes
   * CPU from (and is counted in) the measured runs.
   */
  private static void checkpoint(PostgresServer pg, String db) throws SQLException {
    try (Connection c = pg.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CHECKPOINT");
    }
  }

  /** Whether the user may write a server file ({@code COPY ... TO '/dev/null'}). */
  private static String copyPrivilege(PostgresServer pg, String db) throws SQLException {
    try (Connection c = pg.connect(db);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT rolsuper, pg_has_role(current_user, 'pg_write_server_files', 'MEMBER')"
                    + " FROM pg_roles WHERE rolname = current_user")) {
      rs.next();
      return "superuser=" + rs.getBoolean(1) + ", pg_write_server_files=" + rs.getBoolean(2);
    }
  }

  /**
   * Starts the capture once so that it prepares the source (note tables, publication, slot) and
   * records the table topics, then stops it: the compare task needs no markers here, and a running
   * capture would compete for the CPU.
   *
   * <p>It is stopped a few seconds after it reports streaming, not at once: Debezium 3.6 calls the
   * started callback before it submits its polling tasks, and an engine closed in between can leave
   * {@code Capture.run()} waiting forever. Should that happen anyway, the (idle) capture thread is
   * abandoned — it is a daemon thread — and the benchmark goes on.
   */
  private static void prepareSource(Map<String, String> connection, List<String> tables)
      throws Exception {
    Map<String, String> settings = new HashMap<>(connection);
    settings.put("tables", String.join(",", tables));
    settings.put("topic.partitions", "3");
    Capture capture = new Capture(CaptureConfig.of(settings));
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "capture");
              t.setDaemon(true);
              return t;
            });
    try {
      Future<?> run =
          thread.submit(
              () -> {
                capture.run();
                return null;
              });
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (!capture.awaitStreaming(Duration.ofMillis(200))) {
        if (run.isDone()) {
          run.get(); // throws what stopped it
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the capture did not start within 120 s");
        }
      }
      Thread.sleep(3_000);
      capture.stop();
      try {
        run.get(60, TimeUnit.SECONDS);
        System.err.println("capture prepared the source and was stopped");
      } catch (TimeoutException e) {
        System.err.println(
            "capture prepared the source but did not stop within 60 s (left idle, see"
                + " CompareThroughput#prepareSource)");
      }
    } finally {
      thread.shutdown();
    }
  }

  /** Server-side {@code COPY t TO '/dev/null'}: warm once, best of 3; 0 when not allowed. */
  private static double copyToFile(PostgresServer pg, String db, String table, long rows)
      throws SQLException {
    try (Connection c = pg.connect(db);
        Statement s = c.createStatement()) {
      long best = Long.MAX_VALUE;
      for (int i = 0; i <= COPY_RUNS; i++) {
        long start = System.nanoTime();
        try {
          s.execute("COPY " + table + " TO '/dev/null'");
        } catch (SQLException e) {
          System.err.println("COPY " + table + " TO '/dev/null' refused: " + e.getMessage());
          return 0;
        }
        long nanos = System.nanoTime() - start;
        if (s.getUpdateCount() != rows) {
          throw new IllegalStateException("COPY wrote " + s.getUpdateCount() + " rows");
        }
        if (i > 0) {
          best = Math.min(best, nanos);
        }
      }
      double rate = rows / (best / 1e9);
      System.err.printf(Locale.ROOT, "COPY %s TO '/dev/null': %.0f rows/s%n", table, rate);
      return rate;
    }
  }

  /** {@code COPY t TO STDOUT} through pgjdbc into a discarding stream: warm once, best of 3. */
  private static double copyToStdout(PostgresServer pg, String db, String table, long rows)
      throws SQLException, IOException {
    try (Connection c = pg.connect(db)) {
      var copy = c.unwrap(PGConnection.class).getCopyAPI();
      long best = Long.MAX_VALUE;
      for (int i = 0; i <= COPY_RUNS; i++) {
        long start = System.nanoTime();
        long copied = copy.copyOut("COPY " + table + " TO STDOUT", OutputStream.nullOutputStream());
        long nanos = System.nanoTime() - start;
        if (copied != rows) {
          throw new IllegalStateException("COPY TO STDOUT gave " + copied + " rows");
        }
        if (i > 0) {
          best = Math.min(best, nanos);
        }
      }
      double rate = rows / (best / 1e9);
      System.err.printf(Locale.ROOT, "COPY %s TO STDOUT (pgjdbc): %.0f rows/s%n", table, rate);
      return rate;
    }
  }

  /**
   * The ceiling of any JDBC reader: {@code SELECT * … ORDER BY id} with the compare's fetch size
   * and autocommit off, every column read with its getter, nothing hashed or sent. Warm once, best
   * of 3.
   */
  private static double jdbcScan(PostgresServer pg, String db, String table, long rows)
      throws SQLException {
    try (Connection c = pg.connect(db)) {
      c.setAutoCommit(false);
      long best = Long.MAX_VALUE;
      long sink = 0;
      for (int i = 0; i <= COPY_RUNS; i++) {
        long start = System.nanoTime();
        long read = 0;
        try (Statement s = c.createStatement()) {
          s.setFetchSize(10_000);
          try (java.sql.ResultSet rs =
              s.executeQuery("SELECT id, v, s FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
              sink += rs.getLong(1) + rs.getInt(2) + rs.getString(3).length();
              read++;
            }
          }
        }
        c.commit();
        long nanos = System.nanoTime() - start;
        if (read != rows) {
          throw new IllegalStateException("JDBC scan gave " + read + " rows");
        }
        if (i > 0) {
          best = Math.min(best, nanos);
        }
      }
      double rate = rows / (best / 1e9);
      System.err.printf(
          Locale.ROOT, "JDBC scan of %s: %.0f rows/s (checksum %d)%n", table, rate, sink);
      return rate;
    }
  }

  /** Runs the task over one table in this JVM; the wall time of {@link CompareRun#run()}. */
  private static long compareInProcess(
      Map<String, String> task, String table, String name, long rows) throws Exception {
    Map<String, String> settings = new HashMap<>(task);
    settings.put("tables", table);
    settings.put("task.name", name);
    CompareConfig config = CompareConfig.of(settings);
    long start = System.nanoTime();
    CompareRun.Summary summary = new CompareRun(config, true).run();
    long nanos = System.nanoTime() - start;
    CompareRun.TableDone done = summary.tables().get(0);
    if (!summary.complete() || done.rows() != rows || done.comparedRows() != rows) {
      throw new IllegalStateException("compare of " + table + " gave " + summary);
    }
    return nanos;
  }

  /**
   * Runs the task over one table in a child JVM capped at {@value #CHILD_HEAP}: it must complete
   * under that cap; it reports its heap.
   */
  private static Child compareInChild(
      Map<String, String> task, String table, String name, long rows, String gc)
      throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("compare-throughput-");
    Path file = dir.resolve("task.properties");
    try {
      Properties props = new Properties();
      props.putAll(task);
      props.put("tables", table);
      props.put("task.name", name);
      try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        props.store(w, "compare task of CompareThroughput");
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx" + CHILD_HEAP);
      command.add(gc.equals("serial") ? "-XX:+UseSerialGC" : "-XX:+UseG1GC");
      command.add("-XX:+ExitOnOutOfMemoryError");
      command.add("-cp");
      command.add(absoluteClassPath());
      command.add(ParentWatchdog.class.getName()); // halts the child if this JVM dies
      command.add(Long.toString(ProcessHandle.current().pid()));
      command.add(CompareHeapProbe.class.getName());
      command.add(file.toString());
      Process process =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String result = null;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("RESULT ")) {
            result = line;
          } else {
            System.err.println("[child] " + line);
          }
        }
      }
      int exit = process.waitFor();
      if (exit != 0 || result == null) {
        throw new IllegalStateException(
            "child JVM (-Xmx" + CHILD_HEAP + ") exited with " + exit + " and no result");
      }
      Map<String, String> v =
          Arrays.stream(result.substring("RESULT ".length()).split(" "))
              .map(kv -> kv.split("=", 2))
              .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
      Child child =
          new Child(
              Long.parseLong(v.get("rows")),
              Long.parseLong(v.get("compared")),
              Long.parseLong(v.get("nanos")),
              Long.parseLong(v.get("peakHeap")),
              Long.parseLong(v.get("sampledPeakHeap")),
              Long.parseLong(v.get("liveAfterGc")),
              Long.parseLong(v.get("maxHeap")),
              v.get("collections"));
      if (child.rows() != rows || child.compared() != rows) {
        throw new IllegalStateException("child compare of " + table + " gave " + result);
      }
      System.err.printf(
          Locale.ROOT,
          "compare %d rows in child (-Xmx%s, %s): %.0f rows/s, peak heap %.1f MiB, GCs %s%n",
          rows,
          CHILD_HEAP,
          gc,
          child.rate(),
          mib(child.peakHeap()),
          child.collections());
      return child;
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }

  private static String absoluteClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isEmpty())
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static void report(
      List<Result> results, Integer chunk, String gc, int runs, String privilege) {
    System.out.printf(
        Locale.ROOT,
        "%nfull compare, deep=100, chunk=%s, MD5, narrow rows (id bigint, v int, s text);"
            + " in-process compare: best of %d after a warm-up; COPY: best of %d after one warm-up;"
            + " child JVM: -Xmx%s, %s GC%n",
        chunk == null ? "default" : chunk.toString(),
        runs,
        COPY_RUNS,
        CHILD_HEAP,
        gc.equals("serial") ? "Serial" : "G1");
    System.out.printf(
        Locale.ROOT,
        "%10s | %16s | %16s | %14s | %14s | %14s | %14s | %13s | %14s | %15s | %13s%n",
        "rows",
        "COPY /dev/null/s",
        "COPY STDOUT/s",
        "JDBC scan/s",
        "compare rows/s",
        "ratio /dev/null",
        "ratio STDOUT",
        "child rows/s",
        "peak heap MiB",
        "sampled MiB",
        "live GC MiB");
    for (Result r : results) {
      Child c = r.child();
      System.out.printf(
          Locale.ROOT,
          "%10d | %16s | %16.0f | %14.0f | %14.0f | %14s | %14.2f | %13s | %14s | %15s | %13s%n",
          r.rows(),
          r.copyFileRate() > 0 ? String.format(Locale.ROOT, "%.0f", r.copyFileRate()) : "n/a",
          r.copyStdoutRate(),
          r.jdbcScanRate(),
          r.compareRate(),
          r.copyFileRate() > 0
              ? String.format(Locale.ROOT, "%.2f", r.compareRate() / r.copyFileRate())
              : "n/a",
          r.compareRate() / r.copyStdoutRate(),
          c == null ? "FAILED" : String.format(Locale.ROOT, "%.0f", c.rate()),
          c == null ? "FAILED" : String.format(Locale.ROOT, "%.1f", mib(c.peakHeap())),
          c == null ? "-" : String.format(Locale.ROOT, "%.1f", mib(c.sampledPeakHeap())),
          c == null ? "-" : String.format(Locale.ROOT, "%.1f", mib(c.liveAfterGc())));
    }
    System.out.println(
        "JDBC scan = SELECT * ORDER BY id, fetch size 10 000, every column read, nothing hashed:"
            + " the ceiling of any JDBC reader. ratio = in-process compare rows/s / COPY rows/s"
            + " (goal >= 0.35 of COPY TO '/dev/null');"
            + " peak heap = sum of the heap pools' peaks in the child (an upper bound, garbage"
            + " included); sampled = largest used heap sampled every 10 ms; live GC = largest"
            + " used heap right after a collection. Goal: completes under -Xmx"
            + CHILD_HEAP
            + ", whatever the size.");
    System.out.println("source user: " + privilege);
    int cores = Runtime.getRuntime().availableProcessors();
    System.out.printf(
        Locale.ROOT,
        "%nCPU per row of the in-process compare (from /proc, the whole run: producer JVM with its"
            + " JIT and GC threads, every PostgreSQL backend, the broker JVM), and the rate the"
            + " CPU alone would allow on this machine's %d cores if every part ran in parallel%n",
        cores);
    System.out.printf(
        Locale.ROOT,
        "%10s | %14s | %14s | %14s | %14s | %16s | %15s%n",
        "rows",
        "producer µs",
        "PostgreSQL µs",
        "broker µs",
        "total µs",
        "CPU ceiling/s",
        "ceiling ratio");
    for (Result r : results) {
      double producer = r.cpu().get(CpuMeter.PRODUCER) * 1e6 / r.rows();
      double postgres = r.cpu().get(CpuMeter.POSTGRES) * 1e6 / r.rows();
      double broker = r.cpu().get(CpuMeter.BROKER) * 1e6 / r.rows();
      double total = producer + postgres + broker;
      double ceiling = total > 0 ? cores * 1e6 / total : 0;
      System.out.printf(
          Locale.ROOT,
          "%10d | %14.3f | %14.3f | %14.3f | %14.3f | %16.0f | %15s%n",
          r.rows(),
          producer,
          postgres,
          broker,
          total,
          ceiling,
          r.copyFileRate() > 0
              ? String.format(Locale.ROOT, "%.2f", ceiling / r.copyFileRate())
              : "n/a");
    }
    for (Result r : results) {
      if (r.childFailure() != null) {
        System.out.println(r.rows() + " rows: child FAILED: " + r.childFailure());
      }
    }
  }
}
