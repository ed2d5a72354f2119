package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.ConnectClient.ConnectorStatus;
import io.cdccompare.testsupport.SourceFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded Kafka Connect worker is a real one: Debezium's PostgreSQL source and Debezium's JDBC
 * sink, through Apicurio's Avro converter or Connect's JSON converter, carry inserts, updates and
 * deletes from the source PostgreSQL to a target; pause and resume act. A worker killed and started
 * again is proved by {@code operations}' {@code ConnectPipelineIT}, where the verdicts of a compare
 * depend on it coming back with its connectors and carrying what changed meanwhile.
 *
 * <p>Every test has its own source database, slot, publication, topic and target database, and
 * deletes its connectors at the end. Target tables are created by the test, not by the sink: two
 * JDBC sinks of different dialects registered at the same moment were seen to mix their dialects
 * (docs on this machine).
 */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB,
  Component.CONNECT
})
class ConnectWorkerIT {
  private static final Duration DELIVERY = Duration.ofSeconds(90);
  private static final String TABLE = "customers";

  private final List<String> connectors = new ArrayList<>();
  private EmbeddedEnvironment env;
  private SourceFixture source;
  private ConnectClient connect;

  @BeforeEach
  void freshSource(EmbeddedEnvironment env) throws SQLException {
    this.env = env;
    this.source = new SourceFixture(env, "connect");
    this.connect = env.connect().client();
    source.sql(
        "CREATE TABLE customers (id int PRIMARY KEY, name varchar(100) NOT NULL, tier int)",
        "INSERT INTO customers VALUES (1, 'Ada', 1), (2, 'Grace', 2)");
  }

  @AfterEach
  void deleteConnectorsAndSlot() throws Exception {
    for (String name : connectors) {
      connect.delete(name);
    }
    source.dropSlot(slot());
  }

  @Test
  void avroThroughTheRegistryCarriesInsertsUpdatesAndDeletesToPostgres() throws Exception {
    // Given
    String target = postgresTarget("avro");
    Map<String, String> avro = avroConverters();

    // When
    create("source", sourceConfig(avro));
    create("sink", sinkConfig(env.targetPostgres(), target, avro));
    awaitRows(env.targetPostgres(), target, "1|Ada|1", "2|Grace|2");
    source.sql(
        "INSERT INTO customers VALUES (3, 'Edsger', 3)",
        "UPDATE customers SET name = 'Grace H.', tier = 5 WHERE id = 2",
        "DELETE FROM customers WHERE id = 1");

    // Then
    awaitRows(env.targetPostgres(), target, "2|Grace H.|5", "3|Edsger|3");
    ConsumerRecord<byte[], byte[]> first = firstRecord();
    assertThat(first.value()[0]).as("an Avro record, not JSON").isNotEqualTo((byte) '{');
    assertThat(registryArtifact(topic() + "-value"))
        .as("the value schema the converter registered")
        .contains("\"type\":\"record\"");
  }

  @Test
  void jsonWithSchemasCarriesInsertsUpdatesAndDeletesToMariaDb() throws Exception {
    // Given
    MariaDbServer maria = env.mariadb();
    String target = maria.createDatabase("target_" + source.prefix);
    createTargetTable(maria, target);
    Map<String, String> json = jsonConverters();

    // When
    create("source", sourceConfig(json));
    create("sink", sinkConfig(maria, target, json));
    awaitRows(maria, target, "1|Ada|1", "2|Grace|2");
    source.sql(
        "INSERT INTO customers VALUES (3, 'Edsger', 3)",
        "UPDATE customers SET name = 'Grace H.', tier = 5 WHERE id = 2",
        "DELETE FROM customers WHERE id = 1");

    // Then
    awaitRows(maria, target, "2|Grace H.|5", "3|Edsger|3");
    String value = new String(firstRecord().value(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(value).startsWith("{\"schema\":").contains("\"payload\":");
  }

  @Test
  void aPausedSinkLeavesItsTargetAloneWhileRowsArriveAndResumeAppliesThem() throws Exception {
    // Given: two sinks on the same topic, one to be paused and one that keeps running
    String paused = postgresTarget("paused");
    String running = postgresTarget("running");
    Map<String, String> json = jsonConverters();
    create("source", sourceConfig(json));
    create("sink", sinkConfig(env.targetPostgres(), paused, json));
    create("control", sinkConfig(env.targetPostgres(), running, json));
    awaitRows(env.targetPostgres(), paused, "1|Ada|1", "2|Grace|2");
    awaitRows(env.targetPostgres(), running, "1|Ada|1", "2|Grace|2");

    // When
    connect.pause(name("sink"));
    await().atMost(DELIVERY).until(() -> connect.status(name("sink")).allIn("PAUSED"));
    long before = endOffset();
    source.sql(
        "INSERT INTO customers VALUES (3, 'Edsger', 3)",
        "UPDATE customers SET tier = 7 WHERE id = 1");

    // Then: the rows are on the topic and applied by the running sink, not by the paused one
    await().atMost(DELIVERY).until(() -> endOffset() >= before + 2);
    awaitRows(env.targetPostgres(), running, "1|Ada|7", "2|Grace|2", "3|Edsger|3");
    assertThat(rows(env.targetPostgres(), paused)).containsExactly("1|Ada|1", "2|Grace|2");
    assertThat(connect.status(name("sink")).allIn("PAUSED")).isTrue();

    // When
    connect.resume(name("sink"));

    // Then
    awaitRows(env.targetPostgres(), paused, "1|Ada|7", "2|Grace|2", "3|Edsger|3");
    await().atMost(DELIVERY).until(() -> connect.status(name("sink")).allIn("RUNNING"));
  }

  private String name(String role) {
    return source.prefix + "-" + role;
  }

  private String topic() {
    return source.prefix + ".public." + TABLE;
  }

  private String slot() {
    return "slot_" + source.prefix.toLowerCase(java.util.Locale.ROOT);
  }

  private void create(String role, Map<String, String> config) {
    connect.create(name(role), config);
    connectors.add(name(role));
    await()
        .atMost(DELIVERY)
        .ignoreExceptions()
        .until(
            () -> {
              ConnectorStatus status = connect.status(name(role));
              assertThat(status.tasks()).as(role).noneMatch(t -> t.state().equals("FAILED"));
              return status.allIn("RUNNING");
            });
  }

  private Map<String, String> sourceConfig(Map<String, String> converters) {
    Map<String, String> config = source.debeziumConnector(slot(), "public." + TABLE);
    config.putAll(converters);
    config.put("snapshot.mode", "initial");
    return config;
  }

  private Map<String, String> sinkConfig(
      JdbcServer server, String database, Map<String, String> converters) {
    Map<String, String> config = StockConnectors.jdbcSink(server, database, topic(), TABLE);
    config.putAll(converters);
    return config;
  }

  private Map<String, String> avroConverters() {
    return StockConnectors.avroConverters(env.registry());
  }

  private static Map<String, String> jsonConverters() {
    return StockConnectors.jsonConverters();
  }

  private String postgresTarget(String stem) throws SQLException {
    String database = env.targetPostgres().createDatabase("target_" + stem + "_" + source.prefix);
    createTargetTable(env.targetPostgres(), database);
    return database;
  }

  private static void createTargetTable(JdbcServer server, String database) throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE customers (id int PRIMARY KEY, name varchar(100) NOT NULL, tier int)");
    }
  }

  private static void awaitRows(JdbcServer server, String database, String... expected) {
    await()
        .atMost(DELIVERY)
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(rows(server, database)).containsExactly(expected));
  }

  private static List<String> rows(JdbcServer server, String database) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, tier FROM customers ORDER BY id")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getInt(3));
      }
    }
    return rows;
  }

  private ConsumerRecord<byte[], byte[]> firstRecord() {
    return source.read(topic(), records -> !records.isEmpty()).get(0);
  }

  private long endOffset() throws Exception {
    TopicPartition partition = new TopicPartition(topic(), 0);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      return admin
          .listOffsets(Map.of(partition, OffsetSpec.latest()))
          .partitionResult(partition)
          .get()
          .offset();
    }
  }

  private String registryArtifact(String artifactId) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            env.registry().apicurioApiUrl()
                                + "/groups/default/artifacts/"
                                + artifactId))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }
}
