package io.cdccompare.operations.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void metricsAreThePrometheusTextOfTheRegistryWithTheJvmsMeters() throws Exception {
    // Given a program's metrics served on a free port, with a counter counted twice
    try (ProgramMetrics metrics = ProgramMetrics.open(0).serve(HealthCheck.alwaysHealthy())) {
      Counter.builder("cdccompare.test.things").register(metrics.registry()).increment(2);

      // When it is scraped
      HttpResponse<String> scrape = get(metrics.port(), "/metrics");

      // Then the counter and the JVM's meters are in the text
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(scrape.body())
          .contains("cdccompare_test_things_total 2.0")
          .contains("jvm_memory_used_bytes");
    }
  }

  @Test
  void healthIs200WhileHealthyAnd503WithTheFirstLineOfTheProblemAfter() throws Exception {
    // Given a program that is healthy
    AtomicReference<String> problem = new AtomicReference<>();
    try (ProgramMetrics metrics =
        ProgramMetrics.open(0).serve(() -> Optional.ofNullable(problem.get()))) {
      assertThat(get(metrics.port(), "/health").statusCode()).isEqualTo(200);
      assertThat(get(metrics.port(), "/health").body()).isEqualTo("ok\n");

      // When it finds a problem of two lines
      problem.set("target a stopped: poison record at topic t, partition 0, offset 7\nat …");

      // Then /health is 503 with its first line
      HttpResponse<String> health = get(metrics.port(), "/health");
      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(health.body())
          .isEqualTo("target a stopped: poison record at topic t, partition 0, offset 7\n");
    }
  }

  @Test
  void theServerStopsWhenTheProgramsMetricsClose() throws Exception {
    // Given served metrics
    ProgramMetrics metrics = ProgramMetrics.open(0).serve(HealthCheck.alwaysHealthy());
    int port = metrics.port();
    assertThat(get(port, "/health").statusCode()).isEqualTo(200);

    // When they close
    metrics.close();

    // Then nothing answers on the port
    assertThatThrownBy(() -> get(port, "/health")).isInstanceOf(ConnectException.class);
  }

  @Test
  void withoutAPortNothingIsServedAndTheRegistryRecordsNothing() {
    try (ProgramMetrics metrics = ProgramMetrics.open(null).serve(HealthCheck.alwaysHealthy())) {
      assertThat(metrics.port()).isEqualTo(-1);
      Counter counter = Counter.builder("cdccompare.test.things").register(metrics.registry());
      counter.increment();
      assertThat(counter.count()).isZero();
    }
  }

  @Test
  void aPortOutOfRangeIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> ProgramMetrics.open(70_000))
        .hasMessage("--metrics-port must be 0..65535, was 70000");
  }
}
