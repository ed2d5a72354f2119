package io.cdccompare.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.schemas.SampleRecords;
import io.cdccompare.schemas.Schemas;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.registry.InMemorySchemaRegistry;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SpecificAvroSerdeTest {
  private static final String TOPIC = "pg.compare.test";

  @ParameterizedTest
  @EnumSource(Schemas.Entry.class)
  void everyCatalogRecordSurvivesARoundTrip(Schemas.Entry entry) {
    // Given
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    SpecificRecord record = SampleRecords.of(entry);
    SpecificAvroSerde<SpecificRecord> serde = serdeOf(registry, entry);

    // When
    byte[] bytes = serde.serializer().serialize(TOPIC, record);
    SpecificRecord read = serde.deserializer().deserialize(TOPIC, bytes);

    // Then
    assertThat(read).isEqualTo(record).isNotSameAs(record);
    assertThat(registry.versions(TOPIC + "-value")).hasSize(1);
  }

  @Test
  void openMarkerWithItsNullsSurvivesARoundTrip() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    SpecificAvroSerde<Marker> serde = SpecificAvroSerde.forValues(registry, Marker.class);
    Marker open = SampleRecords.openMarker();

    Marker read =
        serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, open));

    assertThat(read).isEqualTo(open);
    assertThat(read.getLastKey()).isNull();
    assertThat(read.getHashRecords()).isEmpty();
  }

  @Test
  void valuesAndKeysAreRegisteredUnderTheirOwnSubjects() {
    // Given
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    // When
    SpecificAvroSerde.forValues(registry, Marker.class)
        .serializer()
        .serialize("t1", SampleRecords.closeMarker());
    SpecificAvroSerde.forKeys(registry, Marker.class)
        .serializer()
        .serialize("t2", SampleRecords.closeMarker());

    // Then: one schema, one id, two subjects
    assertThat(registry.versions("t1-value")).containsExactly(1);
    assertThat(registry.versions("t2-key")).containsExactly(1);
    assertThat(registry.versions("t1-key")).isEmpty();
    assertThat(registry.versions("t2-value")).isEmpty();
  }

  @Test
  void withoutAutoRegistrationAnUnregisteredSchemaIsRefusedNamingTheSubject() {
    // Given
    String scope = UUID.randomUUID().toString();
    SpecificAvroSerializer<Marker> serializer = new SpecificAvroSerializer<>();
    serializer.configure(
        Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", "false"), false);

    // When / Then
    assertThatThrownBy(() -> serializer.serialize(TOPIC, SampleRecords.closeMarker()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("subject '" + TOPIC + "-value'")
        .hasMessageContaining("auto.register.schemas=false")
        .hasMessageContaining("not found");
    InMemorySchemaRegistry.dropScope(scope);
  }

  @Test
  void preparingRegistersTheSchemaBeforeAnyRecordAndTheFirstRecordUsesItsId() {
    // Given a serializer that registers schemas
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    SpecificAvroSerializer<HashRecord> serializer = new SpecificAvroSerializer<>(registry, false);

    // When it is prepared for the topic, before any record
    serializer.prepare(TOPIC, HashRecord.getClassSchema());

    // Then the subject is registered already, and a record written later carries that id
    assertThat(registry.versions(TOPIC + "-value")).hasSize(1);
    assertThat(registry.versions(TOPIC + "-key")).isEmpty();
    int id = registry.idOf(TOPIC + "-value", HashRecord.getClassSchema());
    byte[] bytes = serializer.serialize(TOPIC, SampleRecords.hashRecord());
    assertThat(WireFormat.schemaId(TOPIC, bytes)).isEqualTo(id);
    assertThat(registry.versions(TOPIC + "-value")).hasSize(1);
  }

  @Test
  void withoutAutoRegistrationPreparingAnUnregisteredSchemaIsRefusedNamingTheSubject() {
    String scope = UUID.randomUUID().toString();
    SpecificAvroSerializer<Marker> serializer = new SpecificAvroSerializer<>();
    serializer.configure(
        Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", "false"), false);

    assertThatThrownBy(() -> serializer.prepare(TOPIC, Marker.getClassSchema()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("subject '" + TOPIC + "-value'")
        .hasMessageContaining("auto.register.schemas=false");
    InMemorySchemaRegistry.dropScope(scope);
  }

  @Test
  void withoutAutoRegistrationARegisteredSchemaIsUsed() {
    // Given
    String scope = UUID.randomUUID().toString();
    InMemorySchemaRegistry.scope(scope).register("other-value", HashRecord.getClassSchema());
    int id =
        InMemorySchemaRegistry.scope(scope).register(TOPIC + "-value", Marker.getClassSchema());
    SpecificAvroSerializer<Marker> serializer = new SpecificAvroSerializer<>();
    serializer.configure(
        Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false), false);

    // When
    byte[] bytes = serializer.serialize(TOPIC, SampleRecords.closeMarker());

    // Then
    assertThat(WireFormat.schemaId(TOPIC, bytes)).isEqualTo(id).isEqualTo(2);
    InMemorySchemaRegistry.dropScope(scope);
  }

  @Test
  void serdesConfiguredByClassNameShareTheMockRegistryScope() {
    // Given: what a Kafka client does with class names in its properties
    String scope = UUID.randomUUID().toString();
    Map<String, Object> configs =
        Map.of(
            "schema.registry.url",
            "mock://" + scope,
            SpecificAvroDeserializer.VALUE_TYPE,
            HashRecord.class.getName());
    Serializer<HashRecord> serializer = new SpecificAvroSerializer<>();
    Deserializer<HashRecord> deserializer = new SpecificAvroDeserializer<>();
    serializer.configure(configs, false);
    deserializer.configure(configs, false);

    // When
    HashRecord read =
        deserializer.deserialize(TOPIC, serializer.serialize(TOPIC, SampleRecords.hashRecord()));

    // Then
    assertThat(read).isEqualTo(SampleRecords.hashRecord());
    assertThat(InMemorySchemaRegistry.scope(scope).versions(TOPIC + "-value")).hasSize(1);
    InMemorySchemaRegistry.dropScope(scope);
  }

  @Test
  void deserializerByClassNameNeedsItsType() {
    Deserializer<HashRecord> deserializer = new SpecificAvroDeserializer<>();

    assertThatThrownBy(
            () -> deserializer.configure(Map.of("schema.registry.url", "mock://x"), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(SpecificAvroDeserializer.KEY_TYPE);
    assertThatThrownBy(
            () ->
                deserializer.configure(
                    Map.of(
                        "schema.registry.url",
                        "mock://x",
                        SpecificAvroDeserializer.VALUE_TYPE,
                        String.class.getName()),
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String");
  }

  @Test
  void unconfiguredSerdeSaysSo() {
    SpecificAvroSerde<Marker> serde = new SpecificAvroSerde<>(Marker.class);

    assertThatThrownBy(serde::serializer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("configure");
  }

  @Test
  void aRecordMissingARequiredFieldIsRefusedNamingTheTopic() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    Marker broken = SampleRecords.closeMarker();
    broken.setTask(null);

    assertThatThrownBy(
            () -> new SpecificAvroSerializer<Marker>(registry, false).serialize(TOPIC, broken))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("io.cdccompare.schemas.avro.Marker")
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("task");
  }

  @SuppressWarnings("unchecked")
  private static SpecificAvroSerde<SpecificRecord> serdeOf(
      InMemorySchemaRegistry registry, Schemas.Entry entry) {
    return SpecificAvroSerde.forValues(registry, (Class<SpecificRecord>) entry.type());
  }
}
