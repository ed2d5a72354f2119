package io.cdccompare.systemtests.soak;

import io.cdccompare.childverifier.ChildVerifier;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One bounded chaos run on the embedded environment (issue 19's soak): a live load on two source
 * tables (a composite and a text key), full compares back to back on a PostgreSQL and a MariaDB
 * target, a random fault of {@link Fault} every few seconds, differences injected on the targets at
 * known moments; then everything is let to settle, one last compare runs undisturbed, and {@link
 * SoakVerdicts} checks every result that was ever published. The capture, the compare runs and the
 * verifiers run in JVMs of their own (so that {@code kill -9} is real); a supervisor restarts a
 * program that died by itself, as a deployment would, and counts it.
 */
public final class SoakRun {
  static final List<String> TARGETS = List.of("pg", "maria");
  static final List<String> TABLES = List.of(SoakTables.COMP, SoakTables.TEXT);
  private static final String PREFIX = "soak";

  /** A difference made on a target at a known moment. */
  record Injection(String target, String table, String kind, String key, long atMs) {
    String id() {
      return target + "|" + table + "|" + kind + "|" + key;
    }
  }

  /** A table of a compare run that ended complete. */
  record DoneTable(String table, String runId, long chunks) {}

  private final SoakOptions options;
  private final Random random;
  private final SoakTables tables;
  private final Object children = new Object();
  private final List<Fault.Injected> faults = new CopyOnWriteArrayList<>();
  private final List<Injection> injections = new CopyOnWriteArrayList<>();
  private final List<DoneTable> doneTables = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> selfExits = new ConcurrentHashMap<>();
  private final List<String> exitReasons = new CopyOnWriteArrayList<>();
  private final AtomicInteger compareStarts = new AtomicInteger();
  private final AtomicInteger comparesComplete = new AtomicInteger();
  private final AtomicLong loadTransactions = new AtomicLong();
  private final AtomicLong loadErrors = new AtomicLong();
  private final List<Fault> deck = new ArrayList<>();
  private final Map<String, ChildVerifier> verifiers = new ConcurrentHashMap<>();
  private final Map<String, Long> lastStart = new ConcurrentHashMap<>();
  private EmbeddedEnvironment env;
  private Path dir;
  private Path captureFile;
  private Path targetsFile;
  private Path taskFile;
  private volatile SoakProcess capture;
  private volatile SoakProcess compare;
  private volatile boolean chaos = true;
  private volatile boolean loading = true;
  private volatile boolean supervising = true;
  private int starts;

  public SoakRun(SoakOptions options) {
    this.options = options;
    this.random = new Random(options.seed());
    this.tables = new SoakTables(options.rowsPerTable());
  }

  /** Runs the soak to its end and returns what it saw; the environment is gone afterwards. */
  public SoakOutcome run() throws Exception {
    long begin = System.currentTimeMillis();
    say("starting the embedded environment (seed " + options.seed() + ")");
    env = EmbeddedEnvironment.start(Component.all());
    Path root = env.root();
    ResultLog results = null;
    List<Thread> threads = new ArrayList<>();
    SoakOutcome outcome;
    try {
      dir = Files.createDirectories(root.resolve("soak"));
      Files.createDirectories(dir.resolve("logs"));
      prepareDatabases();
      writeFiles();
      startCapture();
      awaitLine(capture, "STREAMING", Duration.ofMinutes(2));
      try (Connection c = source()) {
        tables.load(c);
      }
      for (String target : TARGETS) {
        startVerifier(target);
      }
      for (ChildVerifier v : verifiers.values()) {
        v.awaitRunning(Duration.ofMinutes(3));
      }
      requireSettled(awaitTargetsSettled(Duration.ofMinutes(3)), "the initial rows");
      results =
          new ResultLog(
              env.kafka().bootstrapServers(),
              env.registry().confluentApiUrl(),
              CompareTopics.defaults(PREFIX).results());
      threads.add(thread("soak-load", this::load));
      threads.add(thread("soak-compares", this::compares));
      threads.add(thread("soak-supervisor", this::supervise));
      say("chaos for " + options.chaos().toSeconds() + " s");
      long chaosStart = System.currentTimeMillis();
      injectAndFault(chaosStart, chaosStart + options.chaos().toMillis());
      long chaosEnd = System.currentTimeMillis();
      say("chaos over; letting the last compare finish and the targets catch up");
      chaos = false;
      threads.get(1).join(Duration.ofMinutes(6).toMillis());
      loading = false;
      threads.get(0).join(30_000);
      Map<String, Set<String>> diffs = awaitTargetsSettled(Duration.ofMinutes(4));
      say("final compare, undisturbed");
      int before = doneTables.size();
      runCompareToEnd(Duration.ofMinutes(6));
      List<DoneTable> finalRuns = List.copyOf(doneTables.subList(before, doneTables.size()));
      SoakVerdicts verdicts = new SoakVerdicts(injections, doneTables, finalRuns, TARGETS);
      verdicts.awaitComplete(results, Duration.ofMinutes(4));
      supervising = false;
      threads.get(2).join(10_000);
      outcome =
          new SoakOutcome(
              options,
              chaosEnd - chaosStart,
              List.copyOf(faults),
              List.copyOf(injections),
              verdicts.check(results.arrivals(), faults),
              diffs,
              Map.copyOf(selfExitCounts()),
              List.copyOf(exitReasons),
              compareStarts.get(),
              comparesComplete.get(),
              loadTransactions.get(),
              loadErrors.get(),
              List.of(), // what is left behind, and the time in all: finished() below
              List.of(),
              0);
      if (!outcome.passed()) {
        keepLogs(root);
      }
    } catch (Exception | Error e) {
      keepLogs(root);
      throw e;
    } finally {
      chaos = false;
      loading = false;
      supervising = false;
      if (results != null) {
        results.close();
      }
      stopPrograms();
      env.close();
    }
    List<ProcessHandle> left =
        ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
    outcome =
        outcome.finished(
            left.stream().map(p -> p.pid() + " " + p.info().command().orElse("?")).toList(),
            Files.exists(root) ? List.of(root.toString()) : List.of(),
            System.currentTimeMillis() - begin);
    if (!outcome.passed()) {
      say("FAILED; see the table");
    }
    return outcome;
  }

  /** The last error line of a program's log, kept once per distinct text (first 150 characters). */
  private void noteExitReason(String program, Path log) {
    try (var lines = Files.lines(log)) {
      String last = null;
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.contains("ERROR") || line.contains("Exception:")) {
          last = line;
        }
      }
      if (last != null) {
        String reason = program + ": " + last.substring(0, Math.min(150, last.length()));
        if (!exitReasons.contains(reason)) {
          exitReasons.add(reason);
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      exitReasons.add(program + ": log unreadable (" + e + ")");
    }
  }

  private Map<String, Integer> selfExitCounts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    selfExits.forEach((k, v) -> counts.put(k, v.get()));
    return counts;
  }

  private void prepareDatabases() throws SQLException {
    env.sourcePostgres().createDatabase("soak");
    SoakTables.create(env.sourcePostgres(), "soak");
    for (String target : TARGETS) {
      JdbcServer server = server(target);
      server.createDatabase("soak");
      SoakTables.create(server, "soak");
    }
  }

  private JdbcServer server(String target) {
    return target.equals("pg") ? env.targetPostgres() : env.mariadb();
  }

  private Connection source() throws SQLException {
    return env.sourcePostgres().connect("soak");
  }

  private void writeFiles() throws IOException {
    Map<String, String> connection = new LinkedHashMap<>();
    connection.put("topic.prefix", PREFIX);
    connection.put("bootstrap.servers", env.kafka().bootstrapServers());
    connection.put("schema.registry.url", env.registry().confluentApiUrl());
    String tableList = "public." + SoakTables.COMP + ",public." + SoakTables.TEXT;

    Map<String, String> captureSettings = new LinkedHashMap<>(connection);
    source(captureSettings);
    captureSettings.put("tables", tableList);
    captureSettings.put("snapshot", "never");
    captureSettings.put("topic.partitions", "3");
    captureSettings.put("poll.interval.ms", "10");
    captureFile = write("capture.properties", captureSettings);

    Map<String, String> targets = new LinkedHashMap<>(connection);
    targets.put("tables", tableList);
    targets.put("targets", String.join(",", TARGETS));
    targets.put("state.dir", dir.resolve("streams").toString());
    for (String target : TARGETS) {
      JdbcServer server = server(target);
      String section = "target." + target + ".";
      targets.put(section + "url", server.jdbcUrl("soak"));
      targets.put(section + "user", server.user());
      targets.put(section + "password", server.password());
      targets.put(section + "application.id", PREFIX + "-verify-" + target);
      if (target.equals("maria")) {
        for (String table : TABLES) {
          targets.put(section + "table.public." + table, "soak." + table);
        }
      }
    }
    targetsFile = write("targets.properties", targets);

    Map<String, String> task = new LinkedHashMap<>(connection);
    source(task);
    task.put("task.name", "soak");
    task.put("tables", tableList);
    task.put("deep", "100");
    task.put("chunk", "500");
    task.put("progress", "off");
    task.put("targets", String.join(",", TARGETS));
    taskFile = write("task.properties", task);
  }

  private void source(Map<String, String> settings) {
    JdbcServer pg = env.sourcePostgres();
    settings.put("source.hostname", pg.host());
    settings.put("source.port", Integer.toString(pg.port()));
    settings.put("source.database", "soak");
    settings.put("source.user", pg.user());
    settings.put("source.password", pg.password());
  }

  private Path write(String name, Map<String, String> settings) throws IOException {
    Path file = dir.resolve(name);
    Properties p = new Properties();
    p.putAll(settings);
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, "soak");
    }
    return file;
  }

  // ---- programs

  private Path log(String name) {
    return dir.resolve("logs").resolve(name + ".log");
  }

  private void startCapture() throws IOException {
    synchronized (children) {
      capture = SoakProcess.start("capture", log("capture"), "capture", captureFile.toString());
      lastStart.put("capture", System.currentTimeMillis());
    }
  }

  private void startVerifier(String target) throws IOException {
    synchronized (children) {
      verifiers.put(
          target,
          ChildVerifier.start(targetsFile, target, log("verifier-" + target + "-" + (++starts))));
      lastStart.put("verifier " + target, System.currentTimeMillis());
    }
  }

  /** Restarts what died by itself, as a deployment's restart policy does (not faster than 3 s). */
  private void supervise() throws Exception {
    while (supervising) {
      synchronized (children) {
        long now = System.currentTimeMillis();
        if (!capture.isAlive() && now - lastStart.get("capture") > 3000) {
          selfExits.computeIfAbsent("capture", k -> new AtomicInteger()).incrementAndGet();
          noteExitReason("capture", capture.log());
          startCapture();
        }
        for (String target : TARGETS) {
          if (!verifiers.get(target).isAlive()
              && now - lastStart.get("verifier " + target) > 3000) {
            selfExits
                .computeIfAbsent("verifier " + target, k -> new AtomicInteger())
                .incrementAndGet();
            startVerifier(target);
          }
        }
      }
      Thread.sleep(500);
    }
  }

  /** Full compares back to back; a run that died is resumed (it keeps its run id). */
  private void compares() throws Exception {
    boolean unfinished = false;
    while (chaos || unfinished) {
      int exit = runCompare();
      unfinished = exit != 0;
      if (unfinished && !compare.wasKilled()) {
        selfExits.computeIfAbsent("compare run", k -> new AtomicInteger()).incrementAndGet();
        noteExitReason("compare run", compare.log());
        Thread.sleep(1000);
      }
    }
  }

  private int runCompare() throws Exception {
    SoakProcess p;
    synchronized (children) {
      int n = compareStarts.incrementAndGet();
      p =
          SoakProcess.start(
              "compare-" + n, log("compare-" + n), "compare", taskFile.toString(), "false");
      compare = p;
    }
    int exit;
    while ((exit = p.awaitExit(5)) == -1) {
      // until it ends
    }
    if (exit == 0) {
      comparesComplete.incrementAndGet();
      for (String line : p.lines()) {
        if (line.startsWith("DONE ")) {
          String[] parts = line.split(" ");
          doneTables.add(new DoneTable(parts[1], parts[2], Long.parseLong(parts[3])));
        }
      }
    }
    return exit;
  }

  private void runCompareToEnd(Duration timeout) throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (runCompare() != 0) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the final compare did not complete; see " + compare.log());
      }
      Thread.sleep(1000);
    }
  }

  private void stopPrograms() {
    List<Thread> stoppers = new ArrayList<>();
    for (ChildVerifier v : verifiers.values()) {
      stoppers.add(thread("stop-" + v.target(), () -> v.close(Duration.ofSeconds(20))));
    }
    for (SoakProcess p : new SoakProcess[] {capture, compare}) {
      if (p != null) {
        stoppers.add(thread("stop-" + p.name(), () -> p.stop(20)));
      }
    }
    for (Thread t : stoppers) {
      try {
        t.join(40_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  // ---- load, faults, injections

  private void load() throws Exception {
    Random loadRandom = new Random(options.seed() + 1);
    Connection c = null;
    while (loading) {
      try {
        if (c == null) {
          c = source();
        }
        tables.change(c, loadRandom);
        loadTransactions.incrementAndGet();
        Thread.sleep(20); // pacing: about 40 transactions (160 changes) per second at most
      } catch (SQLException e) {
        loadErrors.incrementAndGet();
        closeQuietly(c);
        c = null;
        Thread.sleep(500);
      }
    }
    closeQuietly(c);
  }

  private void injectAndFault(long start, long end) throws Exception {
    int k = options.injections();
    long nextFault = start + options.faultEvery().toMillis();
    int injected = 0;
    int[] frozen = new int[TABLES.size()];
    // at least the chaos time, and until every fault kind happened once
    while (System.currentTimeMillis() < end || faults.size() < Fault.values().length) {
      long now = System.currentTimeMillis();
      long nextInjection =
          k == 0 ? Long.MAX_VALUE : start + (long) ((injected + 0.5) * (end - start) / k);
      if (injected < k && now >= nextInjection) {
        inject(injected, frozen);
        injected++;
      } else if (now >= nextFault) {
        fault();
        long gap = options.faultEvery().toMillis();
        nextFault = System.currentTimeMillis() + gap / 2 + random.nextLong(gap);
      } else {
        Thread.sleep(Math.max(1, Math.min(200, Math.min(nextInjection, nextFault) - now)));
      }
    }
    while (injected < k) { // a fault outlasted the end: inject what is left now
      inject(injected, frozen);
      injected++;
    }
  }

  private void inject(int i, int[] frozen) throws SQLException, InterruptedException {
    String target = TARGETS.get(i % 2);
    int t = (i / 2) % 2;
    String table = TABLES.get(t);
    String kind = List.of("failed", "missed", "extra").get(i % 3);
    String key =
        kind.equals("extra")
            ? (table.equals(SoakTables.COMP) ? "x-extra," + i : "x-extra-" + i)
            : tables.frozenKey(table, frozen[t]++);
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      try (Connection c = server(target).connect("soak")) {
        SoakTables.inject(c, table, kind, key);
        break;
      } catch (SQLException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(500); // the target may be restarting
      }
    }
    injections.add(new Injection(target, table, kind, key, System.currentTimeMillis()));
    say("injected " + kind + " " + table + " " + key + " on " + target);
  }

  private void fault() throws Exception {
    if (deck.isEmpty()) { // every kind once per round, in a seeded order
      deck.addAll(List.of(Fault.values()));
      java.util.Collections.shuffle(deck, random);
    }
    Fault kind = deck.remove(0);
    long start = System.currentTimeMillis();
    String detail;
    switch (kind) {
      case CAPTURE_KILL -> {
        synchronized (children) {
          SoakProcess p = capture;
          detail = "pid " + killProven(p);
          startCapture();
        }
      }
      case VERIFIER_KILL -> {
        String target = TARGETS.get(random.nextInt(TARGETS.size()));
        synchronized (children) {
          ChildVerifier v = verifiers.get(target);
          long pid = v.pid();
          v.kill();
          if (v.isAlive()) {
            throw new IllegalStateException("verifier " + target + " survived kill -9");
          }
          detail = target + " pid " + pid;
          startVerifier(target);
        }
      }
      case COMPARE_KILL -> {
        SoakProcess p = compare;
        if (p == null || !p.isAlive()) {
          detail = "no run at that moment";
        } else {
          detail = p.name() + " pid " + killProven(p);
        }
      }
      case BROKER_RESTART -> {
        env.kafka().restart();
        detail = "same data directory and port";
      }
      case BROKER_PAUSE -> {
        long millis = 3000 + random.nextLong(7000);
        env.kafka().pause();
        try {
          Thread.sleep(millis); // the length of the outage
        } finally {
          env.kafka().resume();
        }
        detail = "SIGSTOP for " + millis + " ms";
      }
      case TARGET_RESTART -> {
        String target = TARGETS.get(random.nextInt(TARGETS.size()));
        if (target.equals("pg")) {
          env.targetPostgres().restart();
        } else {
          env.mariadb().restart();
        }
        detail = target;
      }
      case SOURCE_RESTART -> {
        env.sourcePostgres().restart();
        detail = "fast shutdown, same data";
      }
      default -> throw new IllegalStateException(kind.name());
    }
    faults.add(new Fault.Injected(kind, detail, start, System.currentTimeMillis()));
    say(
        "fault "
            + kind.label
            + " ("
            + detail
            + ") in "
            + (System.currentTimeMillis() - start)
            + " ms");
  }

  /** Kills the program with SIGKILL and shows that it is gone; returns its pid. */
  private static long killProven(SoakProcess p) throws InterruptedException {
    long pid = p.pid();
    p.kill();
    if (p.isAlive()) {
      throw new IllegalStateException(p.name() + " survived kill -9");
    }
    return pid;
  }

  // ---- settling

  /**
   * Waits until every target holds the source's rows but for the injected keys, and returns the
   * keys that differ per target and table at the end (equal to the injected ones when settled).
   */
  private Map<String, Set<String>> awaitTargetsSettled(Duration timeout) throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (true) {
      Map<String, Set<String>> diffs = differingKeys();
      boolean settled = true;
      for (String target : TARGETS) {
        for (String table : TABLES) {
          Set<String> expected = new TreeSet<>();
          for (Injection i : injections) {
            if (i.target().equals(target) && i.table().equals(table)) {
              expected.add(i.key());
            }
          }
          settled &= diffs.get(target + " " + table).equals(expected);
        }
      }
      if (settled || System.currentTimeMillis() > deadline) {
        return diffs;
      }
      Thread.sleep(1000);
    }
  }

  private static void requireSettled(Map<String, Set<String>> diffs, String what) {
    diffs.forEach(
        (targetTable, keys) -> {
          if (!keys.isEmpty()) {
            throw new IllegalStateException(
                targetTable + " did not receive " + what + ": " + keys.size() + " keys differ");
          }
        });
  }

  private Map<String, Set<String>> differingKeys() throws SQLException {
    Map<String, Set<String>> diffs = new LinkedHashMap<>();
    try (Connection src = source()) {
      for (String table : TABLES) {
        Map<String, String> expected = SoakTables.rows(src, table);
        for (String target : TARGETS) {
          Map<String, String> actual;
          try (Connection c = server(target).connect("soak")) {
            actual = SoakTables.rows(c, table);
          }
          Set<String> keys = new TreeSet<>();
          expected.forEach(
              (key, row) -> {
                if (!row.equals(actual.get(key))) {
                  keys.add(key);
                }
              });
          actual.keySet().stream().filter(key -> !expected.containsKey(key)).forEach(keys::add);
          diffs.put(target + " " + table, keys);
        }
      }
    }
    return diffs;
  }

  // ---- small things

  private void awaitLine(SoakProcess p, String line, Duration timeout) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (!p.printed(line)) {
      if (!p.isAlive() || System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(p.name() + " did not print " + line + "; see " + p.log());
      }
      Thread.sleep(100);
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Thread thread(String name, Body body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Exception e) {
                System.err.println(name + " failed: " + e);
                e.printStackTrace();
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // the server went away
      }
    }
  }

  private void keepLogs(Path root) {
    try {
      Path kept = Files.createTempDirectory("cdc-compare-soak-logs-");
      try (var files = Files.walk(root)) {
        for (Path f : (Iterable<Path>) files.filter(SoakRun::isProgramLog)::iterator) {
          Files.copy(f, kept.resolve(root.relativize(f).toString().replace('/', '_')));
        }
      }
      say("logs kept in " + kept);
    } catch (IOException e) {
      say("could not keep the logs: " + e);
    }
  }

  private static boolean isProgramLog(Path p) {
    String s = p.toString();
    return s.endsWith(".log") && !s.contains("/data/") && !s.contains("/streams/");
  }

  static void say(String line) {
    System.out.printf("[soak %tT] %s%n", System.currentTimeMillis(), line);
  }
}
