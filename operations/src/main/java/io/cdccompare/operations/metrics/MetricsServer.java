package io.cdccompare.operations.metrics;

import io.cdccompare.operations.http.HttpEndpoint;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint of a long-running program ({@code --metrics-port}): {@code GET /metrics} is the
 * Prometheus text of its registry, {@code GET /health} is {@code 200 ok} while the {@link
 * HealthCheck} finds no problem and {@code 503} with the problem's line otherwise. It runs on the
 * JDK's own {@code com.sun.net.httpserver} (no dependency; a scrape and a probe are all it serves)
 * on one daemon thread, and stops when {@linkplain #close() closed}. Thread-safe.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpEndpoint endpoint;

  private MetricsServer(HttpEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * Starts serving on {@code port} of every interface (0: a free port, see {@link #port()}).
   *
   * @throws UncheckedIOException naming the port when it cannot be bound
   */
  public static MetricsServer start(
      int port, PrometheusMeterRegistry registry, HealthCheck health) {
    HttpEndpoint endpoint =
        HttpEndpoint.start(
            new InetSocketAddress(port),
            "metrics port",
            "cdc-compare-metrics",
            Map.of(
                "/metrics",
                () ->
                    new HttpEndpoint.Response(
                        200, PROMETHEUS_TEXT, registry.scrape().getBytes(StandardCharsets.UTF_8)),
                "/health",
                () -> {
                  Optional<String> problem = health.problem();
                  return problem.isEmpty()
                      ? HttpEndpoint.Response.text(200, "ok\n")
                      : HttpEndpoint.Response.text(
                          503, problem.get().lines().findFirst().orElse("") + "\n");
                }));
    MetricsServer started = new MetricsServer(endpoint);
    LOG.info("metrics on port {}: /metrics and /health", started.port());
    return started;
  }

  /** The port it listens on. */
  public int port() {
    return endpoint.port();
  }

  /** Stops serving at once (a scrape in progress is cut). */
  @Override
  public void close() {
    endpoint.close();
  }
}
