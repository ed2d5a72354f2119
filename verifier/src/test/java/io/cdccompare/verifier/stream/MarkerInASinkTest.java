package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.note.Note;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.MarkerPhase;
import io.cdccompare.schemas.avro.SourcePosition;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Filter;
import org.apache.kafka.connect.transforms.predicates.HasHeaderKey;
import org.junit.jupiter.api.Test;

/**
 * What a Kafka Connect sink that applies the table topics to a verify-only target makes of a marker
 * (docs/design.md, "Verify-only targets"): its {@code JsonConverter}, which runs before any
 * transform, reads a marker as named bytes (so the stock {@code Filter} with the stock {@code
 * HasHeaderKey} predicate on the marker header can drop it), and without the filter no sink could
 * write it as a row.
 */
class MarkerInASinkTest {
  private static final String TOPIC = "p.public.items";
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("p.public.items.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("p.public.items.Envelope")
          .field("after", ROW)
          .field("op", Schema.STRING_SCHEMA)
          .build();

  @Test
  void jsonConverterReadsAMarkerAsBytesThatNoRowSinkCanWrite() {
    // Given the converter a JDBC sink reads the change envelopes with, with schemas
    byte[] marker = markerBytes();
    JsonConverter json = converter("true");

    // When it converts a marker (Connect converts before any transform runs)
    SchemaAndValue read = json.toConnectData(TOPIC, marker);

    // Then it reads it, so the filter can drop it, but as named bytes, not a row: a sink that
    // writes rows needs a Struct and fails on it loudly, and the bytes are the Avro marker
    assertThat(read.schema().type()).isEqualTo(Schema.Type.BYTES);
    assertThat(read.schema().name()).isEqualTo(MarkerEnvelope.SCHEMA_NAME);
    assertThat(read.value()).isNotInstanceOf(Struct.class);
    assertThat((byte[]) read.value()).isEqualTo(MarkerEnvelope.unwrap(marker));
    assertThat(((byte[]) read.value())[0]).as("Confluent wire format's magic byte").isZero();

    // And without schemas it is a map with no schema: no row either
    SchemaAndValue schemaless = converter("false").toConnectData(TOPIC, marker);
    assertThat(schemaless.schema()).isNull();
    assertThat(schemaless.value()).isInstanceOf(Map.class);
  }

  @Test
  void aMarkerValueThatIsNoEnvelopeIsRefusedNamingWhy() {
    assertThatThrownBy(() -> MarkerEnvelope.unwrap("{\"schema\":{\"name\":\"x\"}}".getBytes()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("is not a io.cdccompare.Marker envelope");
    assertThatThrownBy(() -> MarkerEnvelope.unwrap(new byte[] {0, 0, 0, 0, 1}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("not JSON");
  }

  @Test
  void jsonConverterReadsAChangeEnvelope() {
    // The same converter reads a change: the refusal above is the marker's, not the setup's
    JsonConverter json = converter("true");
    Struct envelope =
        new Struct(ENVELOPE).put("after", new Struct(ROW).put("id", 1)).put("op", "c");
    byte[] change = json.fromConnectData(TOPIC, ENVELOPE, envelope);

    SchemaAndValue read = json.toConnectData(TOPIC, change);

    assertThat(((Struct) read.value()).getString("op")).isEqualTo("c");
  }

  @Test
  void hasHeaderKeyOnTheMarkerHeaderMatchesMarkersOnly() throws Exception {
    // Given the predicate of the documented filter: predicates.isMarker.name=cdc.marker
    assertThat(Note.MARKER_HEADER).isEqualTo("cdc.marker");
    try (HasHeaderKey<SinkRecord> isMarker = new HasHeaderKey<>();
        Filter<SinkRecord> dropMarkers = new Filter<>()) {
      isMarker.configure(Map.of("name", "cdc.marker"));
      dropMarkers.configure(Map.of());

      // When a marker (null key, header cdc.marker = its phase) and a change meet it
      ConnectHeaders markerHeaders = new ConnectHeaders();
      markerHeaders.addString("cdc.op", "m");
      markerHeaders.addBytes(Note.MARKER_HEADER, "CLOSE".getBytes(StandardCharsets.UTF_8));
      SinkRecord marker =
          new SinkRecord(TOPIC, 0, null, null, null, markerBytes(), 7, 0L, null, markerHeaders);
      ConnectHeaders changeHeaders = new ConnectHeaders();
      changeHeaders.addString("cdc.op", "c");
      SinkRecord change =
          new SinkRecord(TOPIC, 0, null, "1", null, "{}", 8, 0L, null, changeHeaders);

      // Then the predicate holds for the marker only, and the Filter drops what it holds for
      assertThat(isMarker.test(marker)).isTrue();
      assertThat(isMarker.test(change)).isFalse();
      assertThat(dropMarkers.apply(marker)).isNull();
    }
  }

  /**
   * A CLOSE marker's value as the capture writes it: Avro in the Confluent wire format, in its JSON
   * envelope ({@link MarkerEnvelope}).
   */
  private static byte[] markerBytes() {
    SpecificAvroSerializer<Marker> markers = new SpecificAvroSerializer<>();
    markers.configure(Map.of("schema.registry.url", "mock://marker-in-a-sink"), false);
    Marker marker =
        Marker.newBuilder()
            .setTask("full")
            .setRunId("20260101T000000Z-abcdef")
            .setTaskKind(TaskKind.FULL)
            .setTable("public.items")
            .setTopic(TOPIC)
            .setChunk(0)
            .setPhase(MarkerPhase.CLOSE)
            .setColumnFingerprint("f")
            .setDeep(100)
            .setSourcePosition(
                SourcePosition.newBuilder().setCommitLsn(100).setEventLsn(99).setTxId(7L).build())
            .setNotedAt(Instant.parse("2026-01-02T03:04:05Z"))
            .setPartition(0)
            .setPartitionCount(1)
            .build();
    return MarkerEnvelope.wrap(markers.serialize(TOPIC, marker));
  }

  private static JsonConverter converter(String schemasEnable) {
    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", schemasEnable), false);
    return json;
  }
}
