package io.cdccompare.operations.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A read-only HTTP endpoint on the JDK's own {@code com.sun.net.httpserver} (no dependency): each
 * path answers {@code GET} (and {@code HEAD}) with what its supplier gives; any other method is
 * {@code 405}, any other path {@code 404}. One daemon thread serves; it stops when {@linkplain
 * #close() closed}. The metrics endpoint and the report page use it. Thread-safe.
 */
public final class HttpEndpoint implements AutoCloseable {
  /** An answer: status, content type and body. */
  public record Response(int status, String contentType, byte[] body) {
    public static Response text(int status, String body) {
      return new Response(
          status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving {@code routes} (exact path → answer) on {@code address} (port 0: a free port,
   * see {@link #port()}).
   *
   * @param what names the endpoint in the error when the address cannot be bound
   * @throws UncheckedIOException naming the address when it cannot be bound
   */
  public static HttpEndpoint start(
      InetSocketAddress address,
      String what,
      String threadName,
      Map<String, Supplier<Response>> routes) {
    HttpServer server;
    try {
      server = HttpServer.create(address, 16);
    } catch (IOException e) {
      throw new UncheckedIOException(
          what + " " + address.getHostString() + ":" + address.getPort() + " cannot be bound: " + e,
          e);
    }
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext(
        "/",
        exchange -> {
          Supplier<Response> route = routes.get(exchange.getRequestURI().getPath());
          if (route == null) {
            respond(exchange, Response.text(404, "not found\n"));
          } else {
            respond(exchange, route);
          }
        });
    server.start();
    return new HttpEndpoint(server, executor);
  }

  private static void respond(HttpExchange exchange, Supplier<Response> route) throws IOException {
    String method = exchange.getRequestMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      try (exchange) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
      }
      return;
    }
    Response response;
    try {
      response = route.get();
    } catch (RuntimeException e) {
      response = Response.text(500, e.getMessage() == null ? e.toString() : e.getMessage());
    }
    respond(exchange, response);
  }

  private static void respond(HttpExchange exchange, Response response) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      if ("HEAD".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(response.status(), -1);
        return;
      }
      exchange.sendResponseHeaders(response.status(), response.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }

  /** The port it listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving at once (a request in progress is cut). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
