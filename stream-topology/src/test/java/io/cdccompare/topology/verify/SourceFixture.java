package io.cdccompare.topology.verify;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fresh source database with a real capture in a background thread, and the configuration of a
 * compare task over it (after capture's CaptureFixture and compare-producer's CompareFixture, whose
 * test classes are not on this module's class path).
 */
final class SourceFixture {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  final EmbeddedEnvironment env;
  final String database;
  final String prefix;

  SourceFixture(EmbeddedEnvironment env) {
    this.env = env;
    this.prefix =
        "ver" + SEQUENCE.incrementAndGet() + "x" + Long.toString(System.nanoTime() % 1_000_000, 36);
    this.database = env.sourcePostgres().createDatabase("source_" + prefix);
  }

  Connection connect() throws SQLException {
    return env.sourcePostgres().connect(database);
  }

  void sql(String... statements) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  /** The keys of {@code orders} as (region, code), in the order the compare task reads them. */
  java.util.List<Object[]> keysInOrder() throws SQLException {
    java.util.List<Object[]> keys = new java.util.ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        java.sql.ResultSet rs =
            s.executeQuery("SELECT region, code FROM orders ORDER BY region, code")) {
      while (rs.next()) {
        keys.add(new Object[] {rs.getInt(1), rs.getString(2)});
      }
    }
    return keys;
  }

  /** The capture's configuration: 3 partitions per table topic, low latency. */
  Map<String, String> captureConfig(String tables) {
    PostgresServer pg = env.sourcePostgres();
    Map<String, String> config = new HashMap<>();
    config.put("topic.prefix", prefix);
    config.put("bootstrap.servers", env.kafka().bootstrapServers());
    config.put("schema.registry.url", env.registry().confluentApiUrl());
    config.put("source.hostname", pg.host());
    config.put("source.port", Integer.toString(pg.port()));
    config.put("source.database", database);
    config.put("source.user", pg.user());
    config.put("source.password", pg.password());
    config.put("tables", tables);
    config.put("topic.partitions", "3");
    config.put("poll.interval.ms", "10");
    config.put("heartbeat.interval.ms", "1000");
    return config;
  }

  /** A compare task over the capture's source and topics. */
  Map<String, String> task(String name, String tables) {
    Map<String, String> config = new HashMap<>(captureConfig(tables));
    for (String captureOnly :
        List.of("topic.partitions", "poll.interval.ms", "heartbeat.interval.ms")) {
      config.remove(captureOnly);
    }
    config.put("task.name", name);
    config.put("progress", "off");
    return config;
  }

  /** Starts a capture and waits until it streams; {@link Running#close()} stops it. */
  Running startCapture(String tables) throws Exception {
    return startCapture(captureConfig(tables));
  }

  /** Starts a capture of this configuration and waits until it streams. */
  Running startCapture(Map<String, String> config) throws Exception {
    Capture capture = new Capture(CaptureConfig.of(config));
    ExecutorService thread = Executors.newSingleThreadExecutor();
    Future<?> run =
        thread.submit(
            () -> {
              capture.run();
              return null;
            });
    while (!capture.awaitStreaming(Duration.ofMillis(200))) {
      if (run.isDone()) {
        run.get(); // throws what stopped it
      }
    }
    return new Running(capture, run, thread);
  }

  record Running(Capture capture, Future<?> run, ExecutorService thread) implements AutoCloseable {
    @Override
    public void close() throws java.util.concurrent.ExecutionException {
      capture.stop();
      try {
        run.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the capture stopped", e);
      } finally {
        thread.shutdownNow();
      }
    }
  }
}
