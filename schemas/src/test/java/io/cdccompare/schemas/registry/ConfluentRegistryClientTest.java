package io.cdccompare.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.RowCounts;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the client sends and how it treats each answer, seen from a scripted HTTP server. */
class ConfluentRegistryClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = RowCounts.getClassSchema();

  private final CountDownLatch release = new CountDownLatch(1);
  private ScriptedRegistryServer server;

  @AfterEach
  void stop() {
    release.countDown();
    if (server != null) {
      server.close();
    }
  }

  @Test
  void registerPostsTheSchemaToTheSubjectsVersionsOnceAndCachesTheId() throws Exception {
    // Given
    server = new ScriptedRegistryServer().answer(200, "{\"id\":42}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    // When
    int first = client.register("pg.compare.results-value", SCHEMA);
    int second = client.register("pg.compare.results-value", SCHEMA);

    // Then
    assertThat(first).isEqualTo(42);
    assertThat(second).isEqualTo(42);
    assertThat(server.requests()).hasSize(1);
    ScriptedRegistryServer.Request request = server.requests().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.rawPath())
        .isEqualTo("/apis/ccompat/v7/subjects/pg.compare.results-value/versions");
    assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
    JsonNode body = JSON.readTree(request.body());
    assertThat(new Schema.Parser().parse(body.get("schema").asText())).isEqualTo(SCHEMA);
  }

  @Test
  void aRegistrationLostToAConcurrentOneLooksTheIdUp() throws Exception {
    // Given a registry that answers the registration with 409 (another writer registered the same
    // schema a moment before, as Apicurio does) and the lookup with the id
    server =
        new ScriptedRegistryServer()
            .answer(409, "{\"error_code\":409,\"message\":\"artifact already exists\"}")
            .answer(200, "{\"id\":42,\"version\":1,\"subject\":\"s\"}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    // When the schema is registered
    int id = client.register("pg.compare.results-value", SCHEMA);

    // Then the id comes from the lookup of the subject
    assertThat(id).isEqualTo(42);
    assertThat(server.requests())
        .extracting(ScriptedRegistryServer.Request::rawPath)
        .containsExactly(
            "/apis/ccompat/v7/subjects/pg.compare.results-value/versions",
            "/apis/ccompat/v7/subjects/pg.compare.results-value");
  }

  @Test
  void schemaByIdFetchesOnceAndCaches() throws Exception {
    // Given
    String answer = JSON.writeValueAsString(Map.of("schema", SCHEMA.toString()));
    server = new ScriptedRegistryServer().answer(200, answer);
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    // When
    Schema first = client.schemaById(7);
    Schema second = client.schemaById(7);

    // Then
    assertThat(first).isEqualTo(SCHEMA);
    assertThat(second).isSameAs(first);
    assertThat(server.requests())
        .extracting(ScriptedRegistryServer.Request::rawPath)
        .containsExactly("/apis/ccompat/v7/schemas/ids/7");
  }

  @Test
  void idOfLooksUpWithoutRegistering() throws Exception {
    server =
        new ScriptedRegistryServer()
            .answer(200, "{\"subject\":\"s-value\",\"id\":3,\"version\":1,\"schema\":\"\"}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThat(client.idOf("s-value", SCHEMA)).isEqualTo(3);
    assertThat(server.requests().get(0).method()).isEqualTo("POST");
    assertThat(server.requests().get(0).rawPath()).isEqualTo("/apis/ccompat/v7/subjects/s-value");
  }

  @Test
  void aRefusalNamesTheUrlSubjectStatusAndTheRegistrysErrorAndIsNotRetried() throws Exception {
    // Given
    server =
        new ScriptedRegistryServer()
            .answer(
                409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible\"}")
            .answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    // When / Then: the subject does not have the schema (it was no registration race), so the
    // registry's refusal stands
    assertThatThrownBy(() -> client.register("orders-value", SCHEMA))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.retriable()).isFalse();
            })
        .hasMessageContaining("POST " + server.url() + "/subjects/orders-value/versions")
        .hasMessageContaining("subject 'orders-value'")
        .hasMessageContaining("HTTP 409")
        .hasMessageContaining("Schema being registered is incompatible");
    assertThat(server.requests())
        .extracting(ScriptedRegistryServer.Request::method)
        .containsExactly("POST", "POST");
  }

  @Test
  void anUnknownIdIsNotFound() throws Exception {
    server =
        new ScriptedRegistryServer()
            .answer(404, "{\"error_code\":40403,\"message\":\"Schema 99 not found\"}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThatThrownBy(() -> client.schemaById(99))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class,
            e -> {
              assertThat(e.notFound()).isTrue();
              assertThat(e.errorCode()).isEqualTo(40403);
            })
        .hasMessageContaining("schema id 99")
        .hasMessageContaining("/schemas/ids/99")
        .hasMessageContaining("error_code 40403");
  }

  @Test
  void aServerErrorIsRetriedAndTheSecondAnswerWins() throws Exception {
    server =
        new ScriptedRegistryServer()
            .answer(503, "{\"error_code\":50003,\"message\":\"busy\"}")
            .answer(200, "{\"id\":5}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThat(client.register("s-value", SCHEMA)).isEqualTo(5);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void retriesStopAfterTheConfiguredAttemptsWithTheLastError() throws Exception {
    server =
        new ScriptedRegistryServer()
            .answer(500, "{\"error_code\":50001,\"message\":\"store down\"}")
            .answer(500, "{\"error_code\":50001,\"message\":\"store down\"}")
            .answer(500, "{\"error_code\":50001,\"message\":\"store down\"}")
            .answer(200, "{\"id\":5}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThatThrownBy(() -> client.register("s-value", SCHEMA))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("HTTP 500")
        .hasMessageContaining("store down");
    assertThat(server.requests()).hasSize(3);
  }

  @Test
  void aUrlThatDoesNotAnswerIsSkippedForTheNext() throws Exception {
    // Given: a port nobody listens on, then the server
    server = new ScriptedRegistryServer().answer(200, "{\"id\":11}");
    String dead = "http://127.0.0.1:" + closedPort();
    RegistryClientConfig config =
        new RegistryClientConfig(
            List.of(URI.create(dead), URI.create(server.url())),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            1,
            Duration.ZERO,
            Optional.empty());

    // When
    int id = new ConfluentRegistryClient(config).register("s-value", SCHEMA);

    // Then
    assertThat(id).isEqualTo(11);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void noAnswerWithinTheRequestTimeoutFailsNamingTheUrl() throws Exception {
    // Given: the server holds its answer until the test ends
    server = new ScriptedRegistryServer().answerAfter(release, 200, "{\"id\":1}");
    RegistryClientConfig config =
        new RegistryClientConfig(
            List.of(URI.create(server.url())),
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            1,
            Duration.ZERO,
            Optional.empty());
    ConfluentRegistryClient client = new ConfluentRegistryClient(config);

    // When / Then
    assertThatThrownBy(() -> client.register("slow-value", SCHEMA))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.retriable()).isTrue())
        .hasMessageContaining(server.url() + "/subjects/slow-value/versions")
        .hasMessageContaining("got no answer")
        // the request timeout also bounds the connection: a loaded machine may end it while
        // connecting (HttpConnectTimeoutException), which is one of the timeouts
        .hasCauseInstanceOf(HttpTimeoutException.class);
  }

  @Test
  void basicAuthenticationIsSentWhenConfigured() throws Exception {
    server = new ScriptedRegistryServer().answer(200, "{\"id\":1}");
    RegistryClientConfig config =
        new RegistryClientConfig(
            List.of(URI.create(server.url())),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            1,
            Duration.ZERO,
            Optional.of("svc:s3cr:et"));

    new ConfluentRegistryClient(config).register("s-value", SCHEMA);

    String expected =
        "Basic "
            + Base64.getEncoder().encodeToString("svc:s3cr:et".getBytes(StandardCharsets.UTF_8));
    assertThat(server.requests().get(0).auth()).isEqualTo(expected);
  }

  @Test
  void subjectsAreEncodedAsOnePathSegment() throws Exception {
    server = new ScriptedRegistryServer().answer(200, "{\"id\":1}");

    new ConfluentRegistryClient(config(server.url())).register("a b/c-value", SCHEMA);

    assertThat(server.requests().get(0).rawPath())
        .isEqualTo("/apis/ccompat/v7/subjects/a%20b%2Fc-value/versions");
  }

  @Test
  void aSchemaOfAnotherTypeIsRefused() throws Exception {
    server =
        new ScriptedRegistryServer()
            .answer(
                200,
                "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\"; message M {}\"}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThatThrownBy(() -> client.schemaById(4))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("schema id 4")
        .hasMessageContaining("PROTOBUF");
  }

  @Test
  void differentSchemasUnderOneSubjectAreCachedApart() throws Exception {
    server = new ScriptedRegistryServer().answer(200, "{\"id\":1}").answer(200, "{\"id\":2}");
    ConfluentRegistryClient client = new ConfluentRegistryClient(config(server.url()));

    assertThat(client.register("s-value", SCHEMA)).isEqualTo(1);
    assertThat(client.register("s-value", Marker.getClassSchema())).isEqualTo(2);
    assertThat(client.register("s-value", SCHEMA)).isEqualTo(1);
    assertThat(server.requests()).hasSize(2);
  }

  private static RegistryClientConfig config(String url) {
    return new RegistryClientConfig(
        List.of(URI.create(url)),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        3,
        Duration.ofMillis(1),
        Optional.empty());
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
