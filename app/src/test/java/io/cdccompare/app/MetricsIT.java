package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.capture.CaptureMeters;
import io.cdccompare.core.metrics.Metric;
import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.metrics.HealthCheck;
import io.cdccompare.operations.metrics.ProgramMetrics;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareMeters;
import io.cdccompare.producer.compare.CompareRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --metrics-port} end to end on real servers: a capture, a PostgreSQL target's verifier and
 * a compare run, each wired as its command wires it ({@link ProgramMetrics}, the program's meters)
 * and scraped over HTTP while it works. The values move with the work, {@code /health} turns 503
 * when a poison record stops the verifier, and every metric of {@link MetricNames#ALL} shows up
 * under its Prometheus name with exactly its labels.
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES
})
class MetricsIT {
  private static final int ROWS = 2_000;
  private static final String TABLE = "public.items";

  @Test
  void aScrapeFollowsTheCaptureTheVerifierAndTheCompareAndHealthTurnsOnAPoisonRecord(
      EmbeddedEnvironment env, @TempDir Path dir) throws Exception {
    // Given a source table replicated to a PostgreSQL target, each program serving its metrics
    ComparePipeline p =
        ComparePipeline.create(
            env, dir, "metrics", Map.of("chunk", "500"), List.of("pg"), Map.of());
    CaptureFixture f = p.source();
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try (ProgramMetrics captureMetrics = ProgramMetrics.open(0);
        ProgramMetrics verifierMetrics = ProgramMetrics.open(0);
        ProgramMetrics compareMetrics = ProgramMetrics.open(0).serve(HealthCheck.alwaysHealthy())) {
      Capture capture =
          new Capture(
              CaptureConfig.of(f.captureConfig(TABLE)),
              new CaptureMeters(captureMetrics.registry()));
      captureMetrics.serve(() -> capture.failure().map(Throwable::getMessage));
      Future<?> captureRun =
          thread.submit(
              () -> {
                capture.run();
                return null;
              });
      RunningVerifier verifier =
          RunningVerifier.start(
              TargetsConfig.load(p.targetsFile()), "pg", true, verifierMetrics.registry());
      verifierMetrics.serve(verifier::problem);
      try (verifier) {
        assertThat(capture.awaitStreaming(Duration.ofSeconds(60))).isTrue();
        verifier.awaitRunning(Duration.ofSeconds(90));
        int capturePort = captureMetrics.port();
        int verifierPort = verifierMetrics.port();
        assertThat(Scrape.get(capturePort, "/health")).isEqualTo(new Scrape.Response(200, "ok\n"));
        assertThat(Scrape.get(verifierPort, "/health")).isEqualTo(new Scrape.Response(200, "ok\n"));
        Scrape idle = Scrape.of(capturePort);
        assertThat(idle.sum("cdccompare_capture_events_total")).isZero();
        assertThat(idle.sum("cdccompare_capture_healthy")).isEqualTo(1);

        // When rows are inserted on the source
        f.sql(
            "INSERT INTO items SELECT g, 'item ' || g, g FROM generate_series(1, " + ROWS + ") g");

        // Then the capture counts them, and the verifier counts them applied and catches up
        await("the capture's events")
            .atMost(Duration.ofSeconds(60))
            .until(() -> Scrape.of(capturePort).sum("cdccompare_capture_events_total") == ROWS);
        await("the verifier's applied rows and lag")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  Scrape s = Scrape.of(verifierPort);
                  assertThat(s.sum("cdccompare_apply_rows_total")).isEqualTo(ROWS);
                  assertThat(s.named("cdccompare_apply_rows_total"))
                      .extracting(x -> x.labels().get("partition"))
                      .containsExactlyInAnyOrder("0", "1", "2");
                  assertThat(s.sum("cdccompare_apply_lag_records")).isZero();
                });
        assertThat(Scrape.of(capturePort).sum("cdccompare_capture_lag_seconds")).isLessThan(60);

        // When a compare runs (chunks of 500 rows, 3 partitions: a verdict per chunk and partition)
        CompareConfig task = CompareConfig.load(p.taskFile());
        CompareRun.Summary summary =
            new CompareRun(task, false, new CompareMeters(compareMetrics.registry(), "metrics"))
                .run();
        assertThat(summary.complete()).isTrue();
        long verdicts = summary.tables().get(0).chunks() * 3;

        // Then it counted the rows it read and finished the table; the capture sent its notes
        Scrape compared = Scrape.of(compareMetrics.port());
        assertThat(compared.sum("cdccompare_compare_rows_total")).isEqualTo(ROWS);
        assertThat(compared.sum("cdccompare_compare_progress_ratio")).isEqualTo(1.0);
        assertThat(compared.named("cdccompare_hashes_waiting"))
            .extracting(x -> x.labels().get("target"))
            .containsExactly("pg");
        await("the capture's markers")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    Scrape.of(capturePort).sum("cdccompare_capture_markers_total")
                        == 2 * summary.tables().get(0).chunks());

        // and the verifier judged every chunk partition and matched every row
        await("the verifier's verdicts")
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  Scrape s = Scrape.of(verifierPort);
                  assertThat(
                          s.sum(
                              "cdccompare_chunks_verified_total",
                              l -> l.get("state").equals("VERIFIED")))
                      .isEqualTo(verdicts);
                  assertThat(
                          s.sum("cdccompare_rows_total", l -> l.get("outcome").equals("matched")))
                      .isEqualTo(ROWS);
                  assertThat(s.sum("cdccompare_verify_duration_seconds_count")).isEqualTo(verdicts);
                  assertThat(s.sum("cdccompare_verdict_lag_seconds_count")).isEqualTo(verdicts);
                });

        // When a record that is no change lands in partition 0 of the table topic
        String topic = f.prefix + "." + TABLE;
        try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
          producer
              .send(
                  new ProducerRecord<>(
                      topic,
                      0,
                      "poison".getBytes(StandardCharsets.UTF_8),
                      "not json".getBytes(StandardCharsets.UTF_8)))
              .get();
        }

        // Then the verifier is unhealthy, saying why, and counted its UNVERIFIABLE alert
        await("the verifier's health")
            .atMost(Duration.ofSeconds(60))
            .until(() -> Scrape.get(verifierPort, "/health").status() == 503);
        assertThat(Scrape.get(verifierPort, "/health").body())
            .contains("poison record at topic " + topic + ", partition 0")
            .endsWith("\n")
            .hasLineCount(1);
        Scrape stopped = Scrape.of(verifierPort);
        assertThat(stopped.sum("cdccompare_verifier_healthy")).isZero();
        assertThat(
                stopped.sum("cdccompare_alerts_total", l -> l.get("code").equals("UNVERIFIABLE")))
            .isEqualTo(1);
        assertThat(Scrape.get(capturePort, "/health").status()).isEqualTo(200);

        // and every metric of the catalogue is in the scrapes, under its name, with its labels
        Scrape capturing = Scrape.of(capturePort);
        for (Metric metric : MetricNames.ALL) {
          String sample =
              metric.type() == Metric.Type.HISTOGRAM
                  ? metric.prometheusName() + "_count"
                  : metric.prometheusName();
          List<Scrape.Sample> found =
              java.util.stream.Stream.of(capturing, stopped, compared)
                  .flatMap(s -> s.named(sample).stream())
                  .toList();
          assertThat(found).as(metric.name() + " scraped as " + sample).isNotEmpty();
          for (Scrape.Sample s : found) {
            Set<String> labels = new HashSet<>(s.labels().keySet());
            assertThat(labels).as(sample + " labels").isEqualTo(Set.copyOf(metric.labels()));
          }
        }
        // and the Kafka Streams, Kafka client and JVM metrics are bound
        assertThat(stopped.samples()).anyMatch(s -> s.name().startsWith("kafka_stream_"));
        assertThat(capturing.samples()).anyMatch(s -> s.name().startsWith("kafka_producer_"));
        assertThat(capturing.samples()).anyMatch(s -> s.name().startsWith("jvm_memory_used"));
      } finally {
        capture.stop();
        captureRun.get();
        thread.shutdown();
      }
    }
  }
}
