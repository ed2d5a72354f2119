package io.cdccompare.bench;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Commit-to-topic latency of the capture: N single-row transactions committed one after another
 * (paced), each timed from the moment its COMMIT returned to the moment a consumer in the same JVM
 * received its change from the table topic. Prints median, p90, p99 and max. Capture tuned with
 * {@code poll.interval.ms=10}; the embedded PostgreSQL runs with {@code wal_writer_delay=10ms}.
 *
 * <p>The first {@code warm-up} transactions (default 200) are committed and received but not
 * measured: right after start the engine loads the table schema and the JIT compiles, and the first
 * few changes take ~0.5 s; the figure is the steady state.
 *
 * <p>Run: see bench/README.md. Arguments: {@code [transactions=1000] [pause-ms=10] [warm-up=200]}.
 */
public final class CaptureLatency {
  private CaptureLatency() {}

  public static void main(String[] args) throws Exception {
    int transactions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long pauseMs = args.length > 1 ? Long.parseLong(args[1]) : 10;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(
            EnumSet.of(Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES))) {
      PostgresServer pg = env.sourcePostgres();
      String db = pg.createDatabase("latency");
      try (Connection c = pg.connect(db);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE lat (id int PRIMARY KEY, v text)");
      }
      Map<String, String> settings =
          Map.ofEntries(
              Map.entry("topic.prefix", "lat"),
              Map.entry("bootstrap.servers", env.kafka().bootstrapServers()),
              Map.entry("schema.registry.url", env.registry().confluentApiUrl()),
              Map.entry("source.hostname", pg.host()),
              Map.entry("source.port", Integer.toString(pg.port())),
              Map.entry("source.database", db),
              Map.entry("source.user", pg.user()),
              Map.entry("source.password", pg.password()),
              Map.entry("tables", "public.lat"),
              Map.entry("topic.partitions", "3"),
              Map.entry("poll.interval.ms", "10"),
              Map.entry("producer.linger.ms", "0"));
      Capture capture = new Capture(CaptureConfig.of(settings));
      ExecutorService threads = Executors.newFixedThreadPool(2);
      Future<?> running =
          threads.submit(
              () -> {
                capture.run();
                return null;
              });
      if (!capture.awaitStreaming(Duration.ofSeconds(120))) {
        throw new IllegalStateException("capture did not start");
      }
      int total = warmUp + transactions;
      long[] committed = new long[total + 1];
      Map<Integer, Long> arrived = new ConcurrentHashMap<>();
      Future<?> consumer = threads.submit(() -> consume(env, "lat.public.lat", total, arrived));
      try (Connection c = pg.connect(db);
          PreparedStatement insert = c.prepareStatement("INSERT INTO lat VALUES (?, 'x')")) {
        for (int i = 1; i <= total; i++) {
          insert.setInt(1, i);
          insert.executeUpdate(); // autocommit: one transaction per row
          committed[i] = System.nanoTime();
          Thread.sleep(pauseMs);
        }
      }
      consumer.get();
      capture.stop();
      running.get();
      threads.shutdown();
      report(warmUp, transactions, committed, arrived);
    }
  }

  private static Void consume(
      EmbeddedEnvironment env, String topic, int expected, Map<Integer, Long> arrived) {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            5);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (arrived.size() < expected) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
          if (r.key() != null && r.value() != null) {
            long now = System.nanoTime();
            arrived.putIfAbsent(Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8)), now);
          }
        }
      }
    }
    return null;
  }

  private static void report(int skip, int n, long[] committed, Map<Integer, Long> arrived) {
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      int id = skip + 1 + i;
      ms[i] = (arrived.get(id) - committed[id]) / 1_000_000.0;
    }
    Arrays.sort(ms);
    System.out.printf(
        "capture commit-to-topic latency over %d single-row transactions (after %d warm-up):"
            + " p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n",
        n, skip, ms[n / 2], ms[(int) (n * 0.90)], ms[(int) (n * 0.99)], ms[n - 1]);
  }
}
