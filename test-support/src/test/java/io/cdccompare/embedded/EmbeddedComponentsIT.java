package io.cdccompare.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Each component of the environment is a real server doing its real job. */
@WithEmbedded({
  Component.KAFKA,
  Component.REGISTRY,
  Component.SOURCE_POSTGRES,
  Component.TARGET_POSTGRES,
  Component.MARIADB
})
class EmbeddedComponentsIT {

  @Test
  void kafkaCommitsTransactionsAndReadCommittedSeesOnlyCommittedRecords(EmbeddedEnvironment env)
      throws Exception {
    // Given
    String topic = "tx-" + UUID.randomUUID();
    String bootstrap = env.kafka().bootstrapServers();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    Map<String, Object> producerConfig =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            "tx-" + topic,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class);

    // When: one transaction aborted, one committed
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k", "aborted"));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k", "committed-1"));
      producer.send(new ProducerRecord<>(topic, "k", "committed-2"));
      producer.commitTransaction();
    }

    // Then
    List<String> seen = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = readCommittedConsumer(bootstrap, topic)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (seen.size() < 2 && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          seen.add(r.value());
        }
      }
    }
    assertThat(seen).containsExactly("committed-1", "committed-2");
  }

  private static KafkaConsumer<String, String> readCommittedConsumer(
      String bootstrap, String topic) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "g-" + topic,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class));
  }

  @Test
  void registryReturnsAnAvroSchemaRegisteredThroughTheConfluentApiById(EmbeddedEnvironment env)
      throws Exception {
    // Given
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Probe\",\"namespace\":\"io.cdccompare.test\","
                    + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}");
    String subject = "probe-" + UUID.randomUUID() + "-value";
    HttpClient http = HttpClient.newHttpClient();
    String body = "{\"schema\":" + jsonString(schema.toString()) + "}";

    // When
    HttpResponse<String> registered =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        env.registry().confluentApiUrl() + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Matcher id = Pattern.compile("\"id\"\\s*:\\s*(\\d+)").matcher(registered.body());
    assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
    assertThat(id.find()).as(registered.body()).isTrue();
    HttpResponse<String> fetched =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(env.registry().confluentApiUrl() + "/schemas/ids/" + id.group(1)))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());

    // Then
    assertThat(fetched.statusCode()).as(fetched.body()).isEqualTo(200);
    Matcher text =
        Pattern.compile("\"schema\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(fetched.body());
    assertThat(text.find()).as(fetched.body()).isTrue();
    Schema readBack =
        new Schema.Parser().parse(text.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
    assertThat(readBack).isEqualTo(schema);
  }

  private static String jsonString(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void sourcePostgresStreamsChangesFromALogicalReplicationSlot(EmbeddedEnvironment env)
      throws Exception {
    // Given
    PostgresServer pg = env.sourcePostgres();
    String db = pg.createDatabase("slot_" + System.nanoTime());
    try (Connection c = pg.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id int PRIMARY KEY, name text)");
      s.execute("SELECT pg_create_logical_replication_slot('probe_slot', 'test_decoding')");

      // When
      s.execute("INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace')");
      s.execute("UPDATE customers SET name = 'Grace H.' WHERE id = 2");

      // Then
      List<String> changes = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT data FROM pg_logical_slot_get_changes('probe_slot', NULL, NULL)")) {
        while (rs.next()) {
          changes.add(rs.getString(1));
        }
      }
      s.execute("SELECT pg_drop_replication_slot('probe_slot')");
      assertThat(changes)
          .filteredOn(line -> line.startsWith("table public.customers"))
          .containsExactly(
              "table public.customers: INSERT: id[integer]:1 name[text]:'Ada'",
              "table public.customers: INSERT: id[integer]:2 name[text]:'Grace'",
              "table public.customers: UPDATE: id[integer]:2 name[text]:'Grace H.'");
    }
  }

  @Test
  void sourceRunsWithLogicalWalLevelAndTargetIsASeparateServer(EmbeddedEnvironment env)
      throws Exception {
    try (Connection source = env.sourcePostgres().connect("postgres");
        Connection target = env.targetPostgres().connect("postgres");
        Statement s = source.createStatement();
        Statement t = target.createStatement();
        ResultSet wal = s.executeQuery("SHOW wal_level")) {
      wal.next();
      assertThat(wal.getString(1)).isEqualTo("logical");
      t.execute("CREATE TABLE only_on_target_" + System.nanoTime() + " (id int)");
      assertThat(env.targetPostgres().port()).isNotEqualTo(env.sourcePostgres().port());
      assertThat(env.targetPostgres().dataDirectory())
          .isNotEqualTo(env.sourcePostgres().dataDirectory());
    }
  }

  @Test
  void mariadbAnswersAndKeepsATableAcrossReconnects(EmbeddedEnvironment env) throws Exception {
    // Given
    MariaDbServer maria = env.mariadb();
    String db = maria.createDatabase("keep_" + System.nanoTime());
    try (Connection c = maria.connect(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, amount DECIMAL(10,2)) ENGINE=InnoDB");
      s.execute("INSERT INTO orders VALUES (1, 10.50), (2, 99.99)");
    }

    // When: a new connection
    try (Connection c = maria.connect(db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, amount FROM orders ORDER BY id")) {

      // Then
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getLong(1) + "=" + rs.getBigDecimal(2).toPlainString());
      }
      assertThat(rows).containsExactly("1=10.50", "2=99.99");
      try (ResultSet v = s.executeQuery("SELECT VERSION()")) {
        v.next();
        assertThat(v.getString(1)).startsWith("11.4");
      }
    }
  }
}
