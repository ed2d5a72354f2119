package io.cdccompare.embedded;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The few calls of Kafka Connect's REST API that tests and the demo need: create, pause, resume and
 * delete a connector, read its status, list connectors and plugins. Connect ships no Java client of
 * its REST API (the worker's own {@code RestClient} is internal), hence this one, on the JDK's HTTP
 * client and Jackson. Pause, resume and create are asynchronous in Connect: the call returns when
 * the worker accepted it; {@link #status(String)} shows when it happened. Thread-safe.
 */
public final class ConnectClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final String restUrl;
  private final HttpClient http;

  public ConnectClient(String restUrl) {
    this.restUrl = restUrl;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** A connector's state and its tasks' states, as {@code GET /connectors/<name>/status} says. */
  public record ConnectorStatus(String name, String state, List<TaskStatus> tasks) {
    public ConnectorStatus {
      tasks = List.copyOf(tasks);
    }

    /** True when the connector and at least one task, and every task, are in {@code state}. */
    public boolean allIn(String wanted) {
      return state.equals(wanted)
          && !tasks.isEmpty()
          && tasks.stream().allMatch(t -> t.state().equals(wanted));
    }
  }

  /**
   * One task's state; {@code trace} is the failure's stack trace when {@code state} is {@code
   * FAILED}, else empty.
   */
  public record TaskStatus(int id, String state, String trace) {}

  /** A request the worker refused: its HTTP status and Connect's error message. */
  public static final class RequestFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    RequestFailed(String request, int status, String body) {
      super(request + " answered HTTP " + status + ": " + body);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** Creates a connector ({@code POST /connectors}); refused (409) when the name exists. */
  public void create(String name, Map<String, String> config) {
    String body = json(Map.of("name", name, "config", config));
    send(
        "POST",
        "/connectors",
        HttpRequest.BodyPublishers.ofString(body),
        HttpRequest.newBuilder().header("Content-Type", "application/json"));
  }

  /** Pauses the connector and its tasks: a sink stops consuming, a source stops polling. */
  public void pause(String name) {
    send("PUT", "/connectors/" + encode(name) + "/pause");
  }

  public void resume(String name) {
    send("PUT", "/connectors/" + encode(name) + "/resume");
  }

  /** Deletes the connector (its tasks stop; a source's offsets stay in the offset topic). */
  public void delete(String name) {
    send("DELETE", "/connectors/" + encode(name));
  }

  public ConnectorStatus status(String name) {
    JsonNode status = read(send("GET", "/connectors/" + encode(name) + "/status"));
    List<TaskStatus> tasks = new ArrayList<>();
    for (JsonNode task : status.path("tasks")) {
      tasks.add(
          new TaskStatus(
              task.path("id").asInt(), task.path("state").asText(), task.path("trace").asText()));
    }
    return new ConnectorStatus(
        status.path("name").asText(), status.path("connector").path("state").asText(), tasks);
  }

  /**
   * The offsets the connector committed ({@code GET /connectors/<name>/offsets}): for a source,
   * each source partition's last committed offset as the connector wrote it (Debezium's PostgreSQL
   * offset holds {@code lsn}, and {@code snapshot} while the snapshot is not done); for a sink, the
   * committed position of each topic partition.
   */
  public List<Map<String, Object>> offsets(String name) {
    List<Map<String, Object>> offsets = new ArrayList<>();
    for (JsonNode entry :
        read(send("GET", "/connectors/" + encode(name) + "/offsets")).path("offsets")) {
      offsets.add(JSON.convertValue(entry.path("offset"), MAP));
    }
    return offsets;
  }

  /** The names of every connector the worker's cluster runs. */
  public List<String> connectors() {
    List<String> names = new ArrayList<>();
    read(send("GET", "/connectors")).forEach(n -> names.add(n.asText()));
    return names;
  }

  /** The class of every plugin the worker loaded: connectors, converters, transforms. */
  public List<String> plugins() {
    List<String> classes = new ArrayList<>();
    read(send("GET", "/connector-plugins?connectorsOnly=false"))
        .forEach(p -> classes.add(p.path("class").asText()));
    return classes;
  }

  private String send(String method, String path) {
    return send(method, path, HttpRequest.BodyPublishers.noBody(), HttpRequest.newBuilder());
  }

  private String send(
      String method, String path, HttpRequest.BodyPublisher body, HttpRequest.Builder builder) {
    String request = method + " " + path;
    HttpRequest http =
        builder
            .uri(URI.create(restUrl + path))
            .timeout(TIMEOUT)
            .header("Accept", "application/json")
            .method(method, body)
            .build();
    try {
      HttpResponse<String> response = this.http.send(http, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new RequestFailed(request, response.statusCode(), response.body());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(request + " to " + restUrl + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(request + " interrupted", e);
    }
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + body, e);
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String encode(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
