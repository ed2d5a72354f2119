package io.cdccompare.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent Schema Registry REST API, so any registry that speaks it works
 * (Confluent Schema Registry, Apicurio's {@code /apis/ccompat/v7}, Karapace, Redpanda). It uses
 * three endpoints: {@code POST /subjects/{subject}/versions} (register), {@code POST
 * /subjects/{subject}} (look up without registering) and {@code GET /schemas/ids/{id}} (fetch by
 * id), for Avro schemas without references.
 *
 * <p>Answers are cached for the life of the client, both ways: (subject, schema) → id and id →
 * schema; a registry never changes either. Each request has a connect and a total timeout. A
 * request that gets no answer, a 5xx or a 429 is tried on the next URL, and the whole round is
 * repeated up to {@link RegistryClientConfig#maxAttempts()} times with a growing pause; any other
 * refusal is thrown at once. Errors name the method, URL, subject or id, HTTP status and the
 * registry's error code and message. Thread-safe. Over 300 lines because each of its few calls
 * carries its own error message: the calls themselves are short.
 */
public final class ConfluentRegistryClient implements SchemaRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ConfluentRegistryClient.class);
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final String ACCEPT =
      "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json;q=0.9,"
          + " application/json;q=0.5";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RegistryClientConfig config;
  private final HttpClient http;
  private final Optional<String> authorization;
  private final Map<SubjectSchema, Integer> registered = new ConcurrentHashMap<>();
  private final Map<SubjectSchema, Integer> lookedUp = new ConcurrentHashMap<>();
  private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

  private record SubjectSchema(String subject, Schema schema) {}

  public ConfluentRegistryClient(RegistryClientConfig config) {
    this.config = config;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    this.authorization =
        config
            .basicAuthUserInfo()
            .map(
                info ->
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString(info.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public int register(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema);
    Integer cached = registered.get(key);
    if (cached != null) {
      return cached;
    }
    String path = "/subjects/" + encode(subject) + "/versions";
    int id;
    try {
      JsonNode answer = post(path, schemaBody(schema), "subject '" + subject + "'");
      id = requireId(answer, path, "subject '" + subject + "'");
    } catch (SchemaRegistryException e) {
      if (e.status() != 409) {
        throw e;
      }
      // 409 is Confluent's "incompatible", but also Apicurio's answer to the loser of two writers
      // registering the same schema at once ("already exists"): if the subject has the schema,
      // that is its id; otherwise the refusal stands
      try {
        id = idOf(subject, schema);
      } catch (SchemaRegistryException notThere) {
        e.addSuppressed(notThere);
        throw e;
      }
    }
    registered.put(key, id);
    lookedUp.put(key, id);
    LOG.debug("registered subject={} id={} registry={}", subject, id, location());
    return id;
  }

  @Override
  public int idOf(String subject, Schema schema) {
    SubjectSchema key = new SubjectSchema(subject, schema);
    Integer cached = lookedUp.get(key);
    if (cached != null) {
      return cached;
    }
    String path = "/subjects/" + encode(subject);
    JsonNode answer = post(path, schemaBody(schema), "subject '" + subject + "'");
    int id = requireId(answer, path, "subject '" + subject + "'");
    lookedUp.put(key, id);
    return id;
  }

  @Override
  public Schema schemaById(int id) {
    Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    String path = "/schemas/ids/" + id;
    String about = "schema id " + id;
    JsonNode answer = send("GET", path, null, about);
    String type = answer.path("schemaType").asText("AVRO");
    if (!type.equals("AVRO")) {
      throw new SchemaRegistryException(
          about + " at " + urlsFor(path) + " is a " + type + " schema, not Avro", 200, 0, null);
    }
    if (answer.path("references").size() > 0) {
      throw new SchemaRegistryException(
          about + " at " + urlsFor(path) + " uses schema references, which are not supported",
          200,
          0,
          null);
    }
    JsonNode text = answer.get("schema");
    if (text == null || !text.isTextual()) {
      throw new SchemaRegistryException(
          "GET " + urlsFor(path) + " (" + about + ") answered without a 'schema' text",
          200,
          0,
          null);
    }
    Schema schema;
    try {
      schema = new Schema.Parser().parse(text.asText());
    } catch (SchemaParseException e) {
      throw new SchemaRegistryException(
          about + " at " + urlsFor(path) + " is not a valid Avro schema: " + e.getMessage(),
          200,
          0,
          e);
    }
    Schema previous = schemasById.putIfAbsent(id, schema);
    return previous != null ? previous : schema;
  }

  @Override
  public String location() {
    return config.urls().size() == 1 ? config.urls().get(0).toString() : config.urls().toString();
  }

  private static String schemaBody(Schema schema) {
    try {
      return JSON.writeValueAsString(Map.of("schema", schema.toString()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a schema as JSON", e);
    }
  }

  private int requireId(JsonNode answer, String path, String about) {
    JsonNode id = answer.get("id");
    if (id == null || !id.canConvertToInt()) {
      throw new SchemaRegistryException(
          "POST " + urlsFor(path) + " (" + about + ") answered without an integer 'id': " + answer,
          200,
          0,
          null);
    }
    return id.intValue();
  }

  private JsonNode post(String path, String body, String about) {
    return send("POST", path, body, about);
  }

  /** One request, with failover over the URLs and bounded retries of retriable failures. */
  private JsonNode send(String method, String path, String body, String about) {
    SchemaRegistryException last = null;
    Duration pause = config.retryBackoff();
    for (int attempt = 1; attempt <= config.maxAttempts(); attempt++) {
      if (attempt > 1) {
        pause(pause, last);
        pause = pause.multipliedBy(2);
      }
      for (URI base : config.urls()) {
        URI uri = URI.create(base + path);
        try {
          HttpResponse<String> response =
              http.send(request(method, uri, body), HttpResponse.BodyHandlers.ofString());
          if (response.statusCode() / 100 == 2) {
            return parse(method, uri, about, response.body());
          }
          SchemaRegistryException refused = refusal(method, uri, about, response);
          if (!refused.retriable()) {
            throw refused;
          }
          last = refused;
        } catch (IOException e) {
          last =
              new SchemaRegistryException(
                  method + " " + uri + " (" + about + ") got no answer: " + e, 0, 0, e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SchemaRegistryException(
              method + " " + uri + " (" + about + ") was interrupted", 0, 0, e);
        }
      }
    }
    throw last;
  }

  private HttpRequest request(String method, URI uri, String body) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri).timeout(config.requestTimeout()).header("Accept", ACCEPT);
    authorization.ifPresent(value -> builder.header("Authorization", value));
    if (body == null) {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      builder
          .header("Content-Type", CONTENT_TYPE)
          .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }
    return builder.build();
  }

  private static JsonNode parse(String method, URI uri, String about, String body) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new SchemaRegistryException(
          method + " " + uri + " (" + about + ") answered with a body that is not JSON: " + e,
          200,
          0,
          e);
    }
  }

  /** The Confluent API answers errors as {"error_code": 40403, "message": "..."}. */
  private static SchemaRegistryException refusal(
      String method, URI uri, String about, HttpResponse<String> response) {
    int errorCode = 0;
    String message = response.body();
    try {
      JsonNode error = JSON.readTree(response.body());
      if (error != null && error.has("error_code")) {
        errorCode = error.path("error_code").asInt();
        message = error.path("message").asText(message);
      }
    } catch (JsonProcessingException notJson) {
      // keep the raw body as the message
    }
    if (message != null && message.length() > 500) {
      message = message.substring(0, 500) + "...";
    }
    return new SchemaRegistryException(
        method
            + " "
            + uri
            + " ("
            + about
            + ") was refused: HTTP "
            + response.statusCode()
            + (errorCode != 0 ? ", error_code " + errorCode : "")
            + (message == null || message.isBlank() ? "" : ": " + message),
        response.statusCode(),
        errorCode,
        null);
  }

  private static void pause(Duration pause, SchemaRegistryException last) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw last;
    }
  }

  private String urlsFor(String path) {
    return config.urls().size() == 1
        ? config.urls().get(0) + path
        : config.urls().stream().map(u -> u + path).toList().toString();
  }

  /** Subjects are path segments: encode everything outside the unreserved set. */
  static String encode(String subject) {
    return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public String toString() {
    return "ConfluentRegistryClient[" + location() + "]";
  }
}
