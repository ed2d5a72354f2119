package io.cdccompare.operations.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code port} of every interface (0: a free port, see {@link #port()}).
   *
   * @throws UncheckedIOException naming the port when it cannot be bound
   */
  public static MetricsServer start(
      int port, PrometheusMeterRegistry registry, HealthCheck health) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("metrics port " + port + " cannot be bound: " + e, e);
    }
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "cdc-compare-metrics");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext(
        "/metrics", exchange -> respond(exchange, 200, registry.scrape(), PROMETHEUS_TEXT));
    server.createContext(
        "/health",
        exchange -> {
          Optional<String> problem = health.problem();
          if (problem.isEmpty()) {
            respond(exchange, 200, "ok\n", TEXT);
          } else {
            respond(exchange, 503, problem.get().lines().findFirst().orElse("") + "\n", TEXT);
          }
        });
    server.start();
    MetricsServer started = new MetricsServer(server, executor);
    LOG.info("metrics on port {}: /metrics and /health", started.port());
    return started;
  }

  private static void respond(HttpExchange exchange, int status, String body, String contentType)
      throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The port it listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving at once (a scrape in progress is cut). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
