package io.cdccompare.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.registry.ConfluentRegistryClient;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.schemas.registry.SchemaRegistryException;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.schemas.serde.WireFormat;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The serdes and the registry client against a real Kafka broker and a real Apicurio registry. */
@WithEmbedded({Component.KAFKA, Component.REGISTRY})
class SerdeIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void everyRecordTypeTravelsThroughARealTopic(EmbeddedEnvironment env) throws Exception {
    for (Schemas.Entry entry : Schemas.all()) {
      // Given
      String topic = newTopic(env, "serde-" + entry.name().toLowerCase());
      SpecificRecord sample = SampleRecords.of(entry);

      // When: producer and consumer create the serdes by class name, as configured clients do
      try (KafkaProducer<String, SpecificRecord> producer = producer(env)) {
        producer.send(new ProducerRecord<>(topic, "k", sample)).get();
      }
      List<ConsumerRecord<String, SpecificRecord>> read = consume(env, topic, entry.type(), 1);

      // Then
      assertThat(read).hasSize(1);
      assertThat(read.get(0).value()).as(entry.name()).isEqualTo(sample);
      assertThat(subjects(env)).contains(topic + "-value");
    }
  }

  @Test
  void aRegisteredSchemaReadsBackByIdThroughAFreshClient(EmbeddedEnvironment env) {
    // Given
    String subject = "registry-" + UUID.randomUUID() + "-value";
    int id = client(env).register(subject, Marker.getClassSchema());

    // When: clients with empty caches
    Schema byId = client(env).schemaById(id);
    int lookedUp = client(env).idOf(subject, Marker.getClassSchema());
    int again = client(env).register(subject, Marker.getClassSchema());

    // Then
    assertThat(byId).isEqualTo(Marker.getClassSchema());
    assertThat(lookedUp).isEqualTo(id);
    assertThat(again).isEqualTo(id);
  }

  @Test
  void unknownSubjectsAndIdsAreNotFound(EmbeddedEnvironment env) {
    ConfluentRegistryClient client = client(env);
    String subject = "never-" + UUID.randomUUID() + "-value";

    assertThatThrownBy(() -> client.idOf(subject, Marker.getClassSchema()))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.notFound()).isTrue())
        .hasMessageContaining(subject)
        .hasMessageContaining(env.registry().confluentApiUrl());
    assertThatThrownBy(() -> client.schemaById(987_654))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.notFound()).isTrue())
        .hasMessageContaining("schema id 987654");
  }

  @Test
  void aReaderWithAnAddedDefaultedFieldReadsRecordsOfTheOlderSchema(EmbeddedEnvironment env)
      throws Exception {
    // Given: the subject checks BACKWARD compatibility; a marker written before 'hashesTopic'
    // existed
    String topic = newTopic(env, "evolution");
    String subject = topic + "-value";
    setCompatibility(env, subject, "BACKWARD");
    Schema old = without(Marker.getClassSchema(), "hashesTopic");
    int oldId = client(env).register(subject, old);
    Marker sample = SampleRecords.closeMarker();
    try (KafkaProducer<String, byte[]> raw = rawProducer(env)) {
      raw.send(new ProducerRecord<>(topic, 0, "old", framed(oldId, sample, old))).get();
    }

    // When: the current schema is registered by the serializer as the next version, then read both
    try (KafkaProducer<String, SpecificRecord> producer = producer(env)) {
      producer.send(new ProducerRecord<>(topic, 0, "new", sample)).get();
    }
    List<ConsumerRecord<String, SpecificRecord>> read = consume(env, topic, Marker.class, 2);

    // Then
    Marker fromOld = (Marker) read.get(0).value();
    Marker fromNew = (Marker) read.get(1).value();
    assertThat(WireFormat.schemaId(topic, rawValue(env, topic, 1))).isNotEqualTo(oldId);
    assertThat(fromOld.getHashesTopic()).isNull();
    assertThat(Marker.newBuilder(fromOld).setHashesTopic(sample.getHashesTopic()).build())
        .isEqualTo(sample);
    assertThat(fromNew).isEqualTo(sample);
  }

  @Test
  void anIncompatibleSchemaIsRefusedNamingTheSubject(EmbeddedEnvironment env) throws Exception {
    // Given
    String subject = "incompatible-" + UUID.randomUUID() + "-value";
    setCompatibility(env, subject, "BACKWARD");
    client(env).register(subject, Marker.getClassSchema());
    Schema requiredAdded =
        new Schema.Parser()
            .parse(
                Marker.getClassSchema()
                    .toString()
                    .replace(
                        "\"fields\":[",
                        "\"fields\":[{\"name\":\"mandatory\",\"type\":\"string\"},"));

    // When / Then
    assertThatThrownBy(() -> client(env).register(subject, requiredAdded))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(409))
        .hasMessageContaining("subject '" + subject + "'")
        .hasMessageContaining("HTTP 409");
  }

  @Test
  void badBytesStopTheConsumerNamingTopicPartitionAndOffset(EmbeddedEnvironment env)
      throws Exception {
    // Given: a JSON value where a framed marker is expected
    String topic = newTopic(env, "poison");
    try (KafkaProducer<String, byte[]> raw = rawProducer(env)) {
      raw.send(
              new ProducerRecord<>(
                  topic, 0, "k", "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8)))
          .get();
    }

    // When / Then
    try (KafkaConsumer<String, SpecificRecord> consumer = consumer(env, Marker.class)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThatThrownBy(() -> consumer.poll(Duration.ofMillis(500)))
                      .isInstanceOfSatisfying(
                          RecordDeserializationException.class,
                          e -> {
                            assertThat(e.topicPartition()).isEqualTo(new TopicPartition(topic, 0));
                            assertThat(e.offset()).isZero();
                            assertThat(e.getCause())
                                .hasMessageContaining("topic '" + topic + "'")
                                .hasMessageContaining("expected the magic byte 0x00");
                          }));
    }
  }

  private static String newTopic(EmbeddedEnvironment env, String name) throws Exception {
    String topic = name + "-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", env.kafka().bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    return topic;
  }

  private static KafkaProducer<String, SpecificRecord> producer(EmbeddedEnvironment env) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            SpecificAvroSerializer.class,
            RegistryClientConfig.URL,
            env.registry().confluentApiUrl()));
  }

  private static KafkaProducer<String, byte[]> rawProducer(EmbeddedEnvironment env) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka().bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
  }

  private static KafkaConsumer<String, SpecificRecord> consumer(
      EmbeddedEnvironment env, Class<? extends SpecificRecord> type) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            env.kafka().bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "serde-it-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            SpecificAvroDeserializer.class,
            SpecificAvroDeserializer.VALUE_TYPE,
            type.getName(),
            RegistryClientConfig.URL,
            env.registry().confluentApiUrl()));
  }

  /** The records of a topic, by partition then offset. */
  private static List<ConsumerRecord<String, SpecificRecord>> consume(
      EmbeddedEnvironment env, String topic, Class<? extends SpecificRecord> type, int count) {
    List<ConsumerRecord<String, SpecificRecord>> read = new ArrayList<>();
    try (KafkaConsumer<String, SpecificRecord> consumer = consumer(env, type)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(WAIT)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                return read.size() >= count;
              });
    }
    read.sort(
        (a, b) ->
            a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
    return read;
  }

  private static byte[] rawValue(EmbeddedEnvironment env, String topic, int index) {
    List<byte[]> values = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "serde-it-raw-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
      consumer.subscribe(List.of(topic));
      List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
      await()
          .atMost(WAIT)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                return read.size() > index;
              });
      read.sort((a, b) -> Long.compare(a.offset(), b.offset()));
      read.forEach(r -> values.add(r.value()));
    }
    return values.get(index);
  }

  private static ConfluentRegistryClient client(EmbeddedEnvironment env) {
    return new ConfluentRegistryClient(RegistryClientConfig.of(env.registry().confluentApiUrl()));
  }

  private static String subjects(EmbeddedEnvironment env) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(env.registry().confluentApiUrl() + "/subjects"))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  private static void setCompatibility(EmbeddedEnvironment env, String subject, String level)
      throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(env.registry().confluentApiUrl() + "/config/" + subject))
                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .PUT(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"compatibility\":\"" + level + "\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private static Schema without(Schema schema, String field) {
    List<Schema.Field> kept = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (!f.name().equals(field)) {
        kept.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(
        schema.getName(), schema.getDoc(), schema.getNamespace(), false, kept);
  }

  /** A record of the older schema framed by hand, as an older producer would have written it. */
  private static byte[] framed(int id, Marker sample, Schema old) throws Exception {
    GenericData.Record record = new GenericData.Record(old);
    for (Schema.Field f : old.getFields()) {
      record.put(f.name(), sample.get(f.name()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<Object>(old, sample.getSpecificData()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
