package io.cdccompare.bench.e2e;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.childverifier.ChildVerifier;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.stream.TableTopic;
import io.cdccompare.core.table.TableName;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pipeline under measurement, wired as a user deploys it: the benchmark's tables on the source
 * and on every target, the capture (in this JVM, {@code snapshot=never}: only what is committed
 * after it streams is copied) and one verifier per target in a JVM of its own, started from the
 * same configuration files the {@code capture}, {@code verify} and {@code compare run} commands
 * read. {@link #close()} stops the verifiers and the capture; on external servers it then removes
 * everything the run created ({@link ExternalCleanup}).
 */
public final class Pipeline implements AutoCloseable {
  private static final Duration VERIFIER_START = Duration.ofMinutes(3);
  private static final Duration CAPTURE_START = Duration.ofMinutes(2);
  private static final Duration CAPTURE_STOP = Duration.ofSeconds(30);

  private final Servers servers;
  private final List<BenchTable> tables;
  private final List<ChildVerifier> verifiers = new CopyOnWriteArrayList<>();
  private final ExternalCleanup cleanup;
  private final ConfigFiles files;
  private String sourceSchema;
  private final Map<String, String> targetSchemas = new LinkedHashMap<>();
  private volatile Capture capture;
  private volatile Future<?> captureRun;
  private ExecutorService captureThread;

  public Pipeline(Servers servers, List<BenchTable> tables) {
    this.servers = servers;
    this.tables = List.copyOf(tables);
    this.cleanup = servers.external() ? new ExternalCleanup(servers, this) : null;
    this.files = new ConfigFiles(servers, this, this.tables);
  }

  /** Creates the empty tables on the source and on every target. */
  public void createTables() throws SQLException {
    try (Connection c = servers.source().connect()) {
      sourceSchema = TargetKind.POSTGRES.currentSchema(c);
      if (cleanup != null) {
        cleanup.noteSourceBefore(c);
      }
      for (BenchTable table : tables) {
        TargetKind.execute(c, table.create(TargetKind.POSTGRES, sourceSql(table)));
        if (cleanup != null) {
          cleanup.createdOnSource(sourceSql(table));
        }
      }
    }
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        targetSchemas.put(target.name(), target.kind().currentSchema(c));
        if (cleanup != null) {
          cleanup.noteTargetBefore(target, c);
        }
        for (BenchTable table : tables) {
          TargetKind.execute(c, table.create(target.kind(), targetSql(target, table)));
          if (cleanup != null) {
            cleanup.createdOnTarget(target, targetSql(target, table));
          }
        }
      }
    }
  }

  /** Starts the capture in this JVM and waits until it streams. */
  public void startCapture() throws Exception {
    Map<String, String> settings = files.capture();
    Capture started = new Capture(CaptureConfig.of(settings));
    capture = started;
    captureThread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "e2e-capture");
              t.setDaemon(true);
              return t;
            });
    captureRun =
        captureThread.submit(
            () -> {
              started.run();
              return null;
            });
    long deadline = System.nanoTime() + CAPTURE_START.toNanos();
    while (!started.awaitStreaming(Duration.ofMillis(200))) {
      requireCaptureRunning();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the capture did not stream within " + CAPTURE_START);
      }
    }
  }

  /** Throws what stopped the capture, if it stopped. */
  public void requireCaptureRunning() throws Exception {
    Future<?> run = captureRun;
    if (run != null && run.isDone()) {
      run.get();
      throw new IllegalStateException("the capture stopped");
    }
  }

  /**
   * Writes the targets file, with {@code extra} keys on top, and starts one verifier JVM per
   * target; waits until all run.
   */
  public void startVerifiers(Map<String, String> extra) throws Exception {
    Path targetsFile = files.targets(extra);
    for (Servers.Target target : servers.targets()) {
      verifiers.add(
          ChildVerifier.start(
              targetsFile,
              target.name(),
              servers.workDir().resolve("logs").resolve("verifier-" + target.name() + ".log")));
    }
    for (ChildVerifier verifier : verifiers) {
      verifier.awaitRunning(VERIFIER_START);
    }
  }

  /** The compare task of one table: every row (deep=100), verified by every target. */
  public Map<String, String> task(BenchTable table, Integer chunk, Map<String, String> extra)
      throws IOException {
    return files.task(table, chunk, extra);
  }

  public List<ChildVerifier> verifiers() {
    return verifiers;
  }

  /** Throws when the capture or a verifier stopped. */
  public void requireHealthy() throws Exception {
    requireCaptureRunning();
    verifiers.forEach(ChildVerifier::requireAlive);
  }

  /** The verifier's application id (consumer group, key of its checkpoints) of a target. */
  public String applicationId(Servers.Target target) {
    return servers.topicPrefix() + "-verify-" + target.name();
  }

  /** {@code schema.table} of a source table, as the configuration files name it. */
  public String sourceName(BenchTable table) {
    return sourceSchema + "." + table.name(servers.tablePrefix());
  }

  /** A source table, quoted for SQL. */
  public String sourceSql(BenchTable table) {
    return TargetKind.POSTGRES.quote(sourceSchema)
        + "."
        + TargetKind.POSTGRES.quote(table.name(servers.tablePrefix()));
  }

  /** A target table, quoted for SQL on that target. */
  public String targetSql(Servers.Target target, BenchTable table) {
    return target.kind().quote(targetSchemas.get(target.name()))
        + "."
        + target.kind().quote(table.name(servers.tablePrefix()));
  }

  /** The schema (PostgreSQL) or database (MariaDB) of a target's tables and bookkeeping. */
  String targetSchema(Servers.Target target) {
    return targetSchemas.get(target.name());
  }

  /** The topic a source table's changes go to. */
  public String topicOf(BenchTable table) {
    return TableTopic.name(servers.topicPrefix(), TableName.parse(sourceName(table)));
  }

  /** The compare's results topic (the verifiers' default). */
  public String resultsTopic() {
    return CompareTopics.defaults(servers.topicPrefix()).results();
  }

  /** Stops the verifiers and the capture; on external servers removes what the run created. */
  @Override
  public void close() {
    close(Duration.ofSeconds(25));
  }

  /**
   * As {@link #close()}, giving each verifier {@code grace} to close its applications (short when
   * the broker may be stopping at the same time, on Ctrl-C).
   */
  public void close(Duration grace) {
    List<Thread> stoppers = new ArrayList<>();
    for (ChildVerifier verifier : verifiers) {
      Thread t =
          new Thread(
              () -> {
                try {
                  verifier.close(grace);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "stop-verifier-" + verifier.target());
      t.start();
      stoppers.add(t);
    }
    stopCapture();
    for (Thread t : stoppers) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (cleanup != null) {
      cleanup.run();
    }
  }

  private void stopCapture() {
    Capture running = capture;
    if (running == null) {
      return;
    }
    capture = null;
    running.stop();
    try {
      captureRun.get(CAPTURE_STOP.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      System.err.println("the capture did not stop within " + CAPTURE_STOP + " (left idle)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      System.err.println("the capture stopped with: " + e.getMessage());
    } finally {
      captureThread.shutdownNow();
    }
  }
}
