package io.cdccompare.demo;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.report.read.TaskReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The whole job on the embedded environment, narrated: a sample shop on a PostgreSQL source, the
 * capture, two verifiers (target {@code a} PostgreSQL, target {@code b} MariaDB), the initial copy,
 * a live write load, a full compare at deep=100 and its report; then differences injected into
 * target {@code b}, a second compare whose report names them by key, and a repair of {@code b}
 * whose check shows them fixed. It runs the same classes and the same configuration files as the
 * {@code capture}, {@code verify} and {@code compare run} commands. {@link #close()} (also from
 * Ctrl-C) stops everything it started. Over 300 lines because it is the demo's script, nine steps
 * read top to bottom.
 */
public final class Demo implements AutoCloseable {
  static final String PREFIX = "demo";
  static final String TASK = "demo";
  static final String TARGET_A = "a";
  static final String TARGET_B = "b";
  private static final int STEPS = 9;
  private static final Duration WAIT = Duration.ofMinutes(5);
  private static final int LOAD_TPS = 20;

  /**
   * How long stopping waits for each part: on Ctrl-C the environment's own shutdown hook stops the
   * servers at the same time, and a client whose broker is gone would wait for its whole timeout.
   */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  /** How long stopping waits for all clients together before the servers are stopped. */
  private static final Duration STOP_ALL = Duration.ofSeconds(15);

  private final DemoSchema schema;
  private final PrintWriter out;
  private final Narrator narrator;
  private final List<AutoCloseable> running = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<RunningVerifier> verifiers = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile boolean closed;
  private volatile CompareRun compare;
  private volatile EmbeddedEnvironment env;
  private Path configDir;
  private Path taskPath;
  private TargetsConfig targets;

  /**
   * @param rows rows of the sample shop in all (≥ 1 000)
   * @param terminal whether {@code out} is a terminal (progress bars redrawn in place)
   */
  public Demo(int rows, PrintWriter out, boolean terminal) {
    this.schema = new DemoSchema(rows);
    this.out = out;
    this.narrator = new Narrator(out, terminal, STEPS);
  }

  /**
   * Runs every step; returns the findings of the second compare and of the repair checked against
   * what was injected.
   */
  public DemoResult run() throws Exception {
    startEnvironment();
    createShop();
    startPipeline();
    awaitInitialCopy();
    LiveLoad load = new LiveLoad(this::sourceConnection, schema.customers(), LOAD_TPS).start();
    running.add(load);
    narrator.step("Live load: about " + LOAD_TPS + " transactions/s on the source from now on");
    narrator.done("customers' balances change, orders come and go while the compares run");

    narrator.step("Full compare at deep=100 (every row), while the load runs");
    CompareRun.Summary first = compare();
    List<TaskReport> clean = awaitVerdicts(first);
    narrator.done(DemoReport.headline(clean));
    DemoReport.print(clean, out);

    Injection injected = inject();

    narrator.step("Full compare again");
    CompareRun.Summary second = compare();
    List<TaskReport> found = awaitVerdicts(second);
    narrator.done(DemoReport.headline(found));
    DemoReport.print(found, out);

    narrator.step(
        "Repairing target b: its failed and missed rows re-sent through the stream, its extra row"
            + " deleted; then exactly those keys compared again");
    RecheckOutcome repaired =
        DemoRepair.repair(
            targets, CompareConfig.load(taskPath), TARGET_B, found, WAIT, () -> closed);
    narrator.done(DemoRepair.headline(repaired));
    requireHealthy(load);
    return DemoResult.of(found, injected, repaired, load.transactions(), narrator.elapsed());
  }

  private void startEnvironment() throws IOException {
    narrator.step(
        "Starting the embedded environment: Kafka (KRaft), schema registry, PostgreSQL source"
            + " and target, MariaDB");
    env = EmbeddedEnvironment.start(Component.all());
    configDir = Files.createDirectories(env.root().resolve("demo-config"));
    narrator.done("up; the demo's files are in " + env.root() + " (deleted at the end)");
  }

  private void createShop() throws SQLException {
    narrator.step(
        String.format(
            Locale.ROOT,
            "Creating the sample shop on the source: %,d customers, %,d orders (composite key),"
                + " all_types (every supported type); %,d rows",
            schema.customers(),
            schema.customers() * DemoSchema.ORDERS_PER_CUSTOMER,
            schema.rows()));
    env.sourcePostgres().createDatabase("shop");
    try (Connection source = sourceConnection()) {
      schema.fillSource(source);
    }
    env.targetPostgres().createDatabase("shop");
    try (Connection a = env.targetPostgres().connect("shop")) {
      DemoSchema.createOnPostgres(a);
    }
    env.mariadb().createDatabase("shop");
    try (Connection b = env.mariadb().connect("shop")) {
      DemoSchema.createOnMariaDb(b);
    }
    narrator.done("source filled; empty tables on target a (PostgreSQL) and b (MariaDB)");
  }

  private void startPipeline() throws Exception {
    narrator.step(
        "Starting the capture (Debezium, snapshot then streaming into topics "
            + PREFIX
            + ".shop.*) and the verifiers of targets a and b");
    DemoFiles files = new DemoFiles(env, configDir);
    Path capturePath = files.capture();
    Path targetsPath = files.targets();
    taskPath = files.task();
    Capture capture = new Capture(CaptureConfig.load(capturePath));
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "demo-capture"));
    Future<?> captureRun =
        thread.submit(
            () -> {
              capture.run();
              return null;
            });
    running.add(
        () -> {
          capture.stop();
          thread.shutdown();
          thread.awaitTermination(
              STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        });
    while (!capture.awaitStreaming(Duration.ofMillis(200))) {
      if (captureRun.isDone()) {
        captureRun.get();
      }
      requireOpen();
    }
    targets = TargetsConfig.load(targetsPath);
    RunningVerifier a = RunningVerifier.start(targets, TARGET_A, true);
    running.add(() -> a.close(STOP_TIMEOUT));
    verifiers.add(a);
    RunningVerifier b = RunningVerifier.start(targets, TARGET_B, false);
    running.add(() -> b.close(STOP_TIMEOUT));
    verifiers.add(b);
    a.awaitRunning(WAIT);
    b.awaitRunning(WAIT);
    narrator.done(
        "capture streaming; verifiers running (a also runs the report aggregation); files: "
            + configDir);
  }

  private void awaitInitialCopy() throws Exception {
    narrator.step("Initial copy: waiting until both targets hold every source row");
    long total = schema.rows();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      long a;
      long b;
      try (Connection ca = env.targetPostgres().connect("shop");
          Connection cb = env.mariadb().connect("shop")) {
        a = DemoSchema.countRows(ca);
        b = DemoSchema.countRows(cb);
      }
      narrator.progress(
          Math.min(a, b), total, String.format(Locale.ROOT, "a %,d  b %,d of %,d", a, b, total));
      if (a == total && b == total) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "initial copy incomplete after " + WAIT + ": a " + a + ", b " + b + " of " + total);
      }
      requireOpen();
      Thread.sleep(250);
    }
    narrator.done(String.format(Locale.ROOT, "%,d rows on each target", total));
  }

  private CompareRun.Summary compare() throws Exception {
    compare = new CompareRun(CompareConfig.load(taskPath), false);
    try {
      CompareRun.Summary summary = compare.run();
      if (!summary.complete()) {
        throw new IllegalStateException("the compare was stopped");
      }
      long chunks = summary.tables().stream().mapToLong(CompareRun.TableDone::chunks).sum();
      narrator.say(
          String.format(
              Locale.ROOT,
              "noted %d chunks of %d tables (run %s); waiting for both targets' verdicts",
              chunks,
              summary.tables().size(),
              summary.taskRunId()));
      return summary;
    } finally {
      compare = null;
    }
  }

  private List<TaskReport> awaitVerdicts(CompareRun.Summary run) throws Exception {
    DemoReport report = DemoReport.of(targets, run);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      DemoReport.Progress progress = report.refresh();
      narrator.progress(progress.verified(), progress.expected(), progress.label());
      if (progress.complete()) {
        return report.report();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("verdicts incomplete after " + WAIT + ": " + progress);
      }
      requireOpen();
      Thread.sleep(500);
    }
  }

  private Injection inject() throws SQLException {
    narrator.step("Injecting differences into target b (MariaDB), directly in its tables");
    Injection injection;
    try (Connection b = env.mariadb().connect("shop")) {
      injection = Injection.into(b);
    }
    narrator.done(
        "changed email of customers "
            + injection.failed()
            + ", deleted orders "
            + injection.missed()
            + ", added customers "
            + injection.extra()
            + " (above every source id)");
    return injection;
  }

  private void requireHealthy(LiveLoad load) {
    if (load.failure() != null) {
      throw new IllegalStateException(
          "the live load stopped: " + load.failure().getMessage(), load.failure());
    }
  }

  /** Throws when the demo was stopped, or a verifier stopped by itself (naming why). */
  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the demo was stopped");
    }
    verifiers.forEach(RunningVerifier::requireHealthy);
  }

  private Connection sourceConnection() {
    try {
      return env.sourcePostgres().connect("shop");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to the source: " + e.getMessage(), e);
    }
  }

  /** Where the demo's capture, task and targets files are (inside the environment's directory). */
  public Path configDir() {
    return configDir;
  }

  /** Stops the load, a running compare, the verifiers, the capture and the environment. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    CompareRun current = compare;
    if (current != null) {
      current.stop();
    }
    // every client at once, each bounded by its own timeout (on Ctrl-C the servers are going
    // away at the same time), then the environment, which deletes the directory they write in
    List<Thread> stoppers = new java.util.ArrayList<>();
    for (AutoCloseable part : running) {
      Thread stopper = new Thread(() -> closeQuietly(part), "cdc-compare-demo-stop-part");
      stopper.setDaemon(true);
      stopper.start();
      stoppers.add(stopper);
    }
    long deadline = System.nanoTime() + STOP_ALL.toNanos();
    for (Thread stopper : stoppers) {
      try {
        stopper.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (env != null) {
      env.close();
    }
  }

  private static void closeQuietly(AutoCloseable part) {
    try {
      part.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      org.slf4j.LoggerFactory.getLogger(Demo.class).warn("stopping the demo: {}", e.toString());
    }
  }
}
