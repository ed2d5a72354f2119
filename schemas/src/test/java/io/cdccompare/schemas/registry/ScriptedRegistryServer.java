package io.cdccompare.schemas.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * An HTTP server on a loopback port that records every request and answers with scripted responses,
 * in order, to see exactly what the client sends and how it treats each answer.
 */
final class ScriptedRegistryServer implements AutoCloseable {

  record Request(String method, String rawPath, String contentType, String auth, String body) {}

  record Response(int status, String body, CountDownLatch holdUntil) {}

  private final HttpServer server;
  private final Deque<Response> script = new ArrayDeque<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  ScriptedRegistryServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7";
  }

  synchronized ScriptedRegistryServer answer(int status, String body) {
    script.add(new Response(status, body, null));
    return this;
  }

  synchronized ScriptedRegistryServer answerAfter(CountDownLatch latch, int status, String body) {
    script.add(new Response(status, body, latch));
    return this;
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(
        new Request(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(),
            exchange.getRequestHeaders().getFirst("Content-Type"),
            exchange.getRequestHeaders().getFirst("Authorization"),
            body));
    Response response;
    synchronized (this) {
      response =
          script.isEmpty() ? new Response(500, "{\"error_code\":50001}", null) : script.poll();
    }
    if (response.holdUntil() != null) {
      try {
        response.holdUntil().await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
    try {
      exchange.sendResponseHeaders(response.status(), bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (IOException clientGone) {
      // the client timed out and closed the connection
    } finally {
      exchange.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
