package io.cdccompare.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.schemas.SampleRecords;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.RowCounts;
import io.cdccompare.schemas.avro.SourcePosition;
import io.cdccompare.schemas.registry.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The bytes on the wire, built and checked independently of the serdes. */
class WireFormatTest {
  private static final String TOPIC = "pg.compare.results";

  @Test
  void serializedRecordIsMagicByteBigEndianIdAndThePlainAvroBody() throws IOException {
    // Given: an id whose four bytes all differ
    RowCounts counts = SampleRecords.counts();
    FixedIdRegistry registry = new FixedIdRegistry(0x01020304, RowCounts.getClassSchema());

    // When
    byte[] bytes = new SpecificAvroSerializer<RowCounts>(registry, false).serialize(TOPIC, counts);

    // Then
    assertThat(Arrays.copyOfRange(bytes, 0, 5)).containsExactly(0, 1, 2, 3, 4);
    assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(plainAvro(counts));
    // matched=9, failed=1, missed=2, extra=3, inFlight=4 as zig-zag varints
    assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).containsExactly(18, 2, 4, 6, 8);
  }

  @Test
  void recordWrittenByAnotherAvroWriterIsRead() throws IOException {
    // Given: a generic record framed by hand, as a Confluent serializer would write it
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    int id = registry.register(TOPIC + "-value", RowCounts.getClassSchema());
    GenericRecord generic = new GenericData.Record(RowCounts.getClassSchema());
    generic.put("matched", 5L);
    generic.put("failed", 4L);
    generic.put("missed", 3L);
    generic.put("extra", 2L);
    generic.put("inFlight", 1L);
    byte[] framed = frame(id, genericAvro(generic));

    // When
    RowCounts read =
        new SpecificAvroDeserializer<>(registry, RowCounts.class).deserialize(TOPIC, framed);

    // Then
    assertThat(read).isEqualTo(new RowCounts(5L, 4L, 3L, 2L, 1L));
  }

  @Test
  void schemaIdIsReadBigEndian() {
    assertThat(WireFormat.schemaId(TOPIC, new byte[] {0, 0, 0, 1, 2, 9})).isEqualTo(258);
    assertThat(WireFormat.schemaId(TOPIC, new byte[] {0, 0x7f, -1, -1, -1})).isEqualTo(0x7fffffff);
  }

  @Test
  void tooShortRecordIsRefusedSayingSo() {
    assertThatThrownBy(() -> WireFormat.schemaId(TOPIC, new byte[] {0, 0, 0}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("3 bytes, at least 5 needed");
  }

  @Test
  void wrongMagicByteIsRefusedNamingTheByte() {
    byte[] json = "{\"a\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThatThrownBy(() -> WireFormat.schemaId(TOPIC, json))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("first byte is 0x7b, expected the magic byte 0x00");
  }

  @Test
  void unknownSchemaIdIsRefusedNamingTheId() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    SpecificAvroDeserializer<Marker> deserializer =
        new SpecificAvroDeserializer<>(registry, Marker.class);

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {0, 0, 0, 0, 77, 2}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("schema id 77")
        .hasMessageContaining("unknown to the registry");
  }

  @Test
  void truncatedBodyIsRefusedSayingSo() {
    // Given: a whole marker, cut one byte short
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    byte[] whole =
        new SpecificAvroSerializer<Marker>(registry, false)
            .serialize(TOPIC, SampleRecords.closeMarker());
    byte[] cut = Arrays.copyOf(whole, whole.length - 1);

    // When / Then
    assertThatThrownBy(
            () -> new SpecificAvroDeserializer<>(registry, Marker.class).deserialize(TOPIC, cut))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("truncated")
        .hasMessageNotContaining("malformed");
  }

  @Test
  void bytesAfterTheRecordAreRefused() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    byte[] whole =
        new SpecificAvroSerializer<RowCounts>(registry, false)
            .serialize(TOPIC, SampleRecords.counts());
    byte[] longer = Arrays.copyOf(whole, whole.length + 2);

    assertThatThrownBy(
            () ->
                new SpecificAvroDeserializer<>(registry, RowCounts.class)
                    .deserialize(TOPIC, longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("bytes are left after the record")
        .hasMessageNotContaining("malformed")
        .hasNoCause();
  }

  @Test
  void recordOfAnotherTypeIsRefusedAsUnresolvable() {
    // Given: a marker on the wire, read as a hash record
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    byte[] marker =
        new SpecificAvroSerializer<Marker>(registry, false)
            .serialize(TOPIC, SampleRecords.closeMarker());

    // When / Then
    assertThatThrownBy(
            () ->
                new SpecificAvroDeserializer<>(registry, HashRecord.class)
                    .deserialize(TOPIC, marker))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining(HashRecord.class.getName())
        .hasMessageContaining("does not resolve");
  }

  @Test
  void garbageBodyIsRefusedAsMalformed() {
    // Given: commitLsn 1, eventLsn 1, then union branch 2 of a two-branch union
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    int id = registry.register(TOPIC + "-value", SourcePosition.getClassSchema());
    byte[] garbage = frame(id, new byte[] {2, 2, 4});

    // When / Then
    assertThatThrownBy(
            () ->
                new SpecificAvroDeserializer<>(registry, SourcePosition.class)
                    .deserialize(TOPIC, garbage))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("schema id " + id)
        .hasMessageContaining("malformed");
  }

  @Test
  void negativeLengthIsRefused() {
    // Given: a marker whose first string has length -1 (zig-zag 0x01)
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    int id = registry.register(TOPIC + "-value", Marker.getClassSchema());
    byte[] garbage = frame(id, new byte[] {1, 1, 1, 1});

    // When / Then
    assertThatThrownBy(
            () ->
                new SpecificAvroDeserializer<>(registry, Marker.class).deserialize(TOPIC, garbage))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("schema id " + id)
        .hasMessageContaining("Marker");
  }

  @Test
  void hugeDeclaredLengthDoesNotAllocateIt() throws IOException {
    // Given: a string length of 1 GB (more than the test heap) but only a few bytes of body
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    int id = registry.register(TOPIC + "-value", Marker.getClassSchema());
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(body, null);
    encoder.writeLong(1_000_000_000L);
    encoder.writeFixed(new byte[] {'a', 'b'});
    encoder.flush();
    byte[] garbage = frame(id, body.toByteArray());

    // When / Then: an error about the bytes, not an OutOfMemoryError
    assertThatThrownBy(
            () ->
                new SpecificAvroDeserializer<>(registry, Marker.class).deserialize(TOPIC, garbage))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("topic '" + TOPIC + "'")
        .hasMessageContaining("truncated");
  }

  @Test
  void nullIsATombstoneBothWays() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    assertThat(new SpecificAvroSerializer<Marker>(registry, false).serialize(TOPIC, null)).isNull();
    assertThat(new SpecificAvroDeserializer<>(registry, Marker.class).deserialize(TOPIC, null))
        .isNull();
    assertThat(registry.versions(TOPIC + "-value")).isEmpty();
  }

  static byte[] frame(int id, byte[] body) {
    byte[] framed = new byte[5 + body.length];
    framed[1] = (byte) (id >>> 24);
    framed[2] = (byte) (id >>> 16);
    framed[3] = (byte) (id >>> 8);
    framed[4] = (byte) id;
    System.arraycopy(body, 0, framed, 5, body.length);
    return framed;
  }

  private static byte[] plainAvro(SpecificRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static byte[] genericAvro(GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
