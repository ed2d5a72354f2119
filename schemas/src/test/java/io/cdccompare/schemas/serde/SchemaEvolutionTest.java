package io.cdccompare.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.schemas.SampleRecords;
import io.cdccompare.schemas.Schemas;
import io.cdccompare.schemas.registry.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every defaulted field could have been added later: records written by a schema without it must
 * read with the current class, the field taking its default and every other field its value.
 */
class SchemaEvolutionTest {
  private static final String TOPIC = "pg.compare.evolution";

  @ParameterizedTest
  @EnumSource(Schemas.Entry.class)
  void aReaderWithAnAddedDefaultedFieldReadsRecordsWrittenWithoutIt(Schemas.Entry entry)
      throws IOException {
    Schema current = entry.schema();
    List<Schema.Field> defaulted =
        current.getFields().stream().filter(Schema.Field::hasDefaultValue).toList();
    assertThat(defaulted).as("defaulted fields of %s", current.getName()).isNotEmpty();

    for (Schema.Field added : defaulted) {
      // Given: the sample written by the schema as it was before 'added'
      InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
      SpecificRecordBase sample = (SpecificRecordBase) SampleRecords.of(entry);
      Schema old = without(current, added.name());
      int oldId = registry.register(TOPIC + "-value", old);
      byte[] bytes = WireFormatTest.frame(oldId, write(sample, old));

      // When
      SpecificRecord read =
          new SpecificAvroDeserializer<>(registry, entry.type()).deserialize(TOPIC, bytes);

      // Then
      SpecificRecordBase expected =
          (SpecificRecordBase) SpecificData.get().deepCopy(current, sample);
      expected.put(added.pos(), SpecificData.getForClass(entry.type()).getDefaultValue(added));
      assertThat(read).as("%s without %s", current.getName(), added.name()).isEqualTo(expected);
      assertThat(read.get(added.pos()))
          .as("%s.%s", current.getName(), added.name())
          .isNotEqualTo(sample.get(added.pos()));
    }
  }

  @Test
  void aChunkStateOrAlertCodeOfALaterVersionIsReadAsUnverifiable() throws IOException {
    // Given a result and an alert written by a later schema whose enums have one more symbol
    for (Schemas.Entry entry : List.of(Schemas.Entry.CHUNK_RESULT, Schemas.Entry.ALERT)) {
      String field = entry == Schemas.Entry.CHUNK_RESULT ? "state" : "code";
      Schema current = entry.schema();
      Schema later =
          new Schema.Parser()
              .parse(current.toString().replace("\"STALLED\"]", "\"STALLED\",\"LATER\"]"));
      SpecificRecordBase sample = (SpecificRecordBase) SampleRecords.of(entry);
      GenericData.Record record = new GenericData.Record(later);
      for (Schema.Field f : later.getFields()) {
        record.put(f.name(), sample.get(f.name()));
      }
      record.put(field, new GenericData.EnumSymbol(later.getField(field).schema(), "LATER"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      new SpecificDatumWriter<Object>(later, sample.getSpecificData()).write(record, encoder);
      encoder.flush();
      InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
      int laterId = registry.register(TOPIC + "-value", later);

      // When this version reads it
      SpecificRecord read =
          new SpecificAvroDeserializer<>(registry, entry.type())
              .deserialize(TOPIC, WireFormatTest.frame(laterId, out.toByteArray()));

      // Then the unknown symbol takes the enum's default
      assertThat(read.get(current.getField(field).pos()).toString())
          .as("%s.%s", current.getName(), field)
          .isEqualTo("UNVERIFIABLE");
    }
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

  private static byte[] write(SpecificRecordBase sample, Schema old) throws IOException {
    GenericData.Record record = new GenericData.Record(old);
    for (Schema.Field f : old.getFields()) {
      record.put(f.name(), sample.get(f.name()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<Object>(old, sample.getSpecificData()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
