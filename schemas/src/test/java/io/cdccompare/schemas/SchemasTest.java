package io.cdccompare.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.ReportEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class SchemasTest {

  @Test
  void catalogListsEveryPublishedRecordWithItsGeneratedSchema() {
    // When
    List<Class<? extends SpecificRecord>> types =
        Schemas.all().stream().<Class<? extends SpecificRecord>>map(Schemas.Entry::type).toList();

    // Then
    assertThat(types)
        .containsExactly(
            Marker.class, HashRecord.class, ChunkResult.class, ReportEntry.class, Alert.class);
    assertThat(Schemas.Entry.MARKER.schema()).isSameAs(Marker.getClassSchema());
    assertThat(Schemas.Entry.ALERT.schema()).isSameAs(Alert.getClassSchema());
  }

  @Test
  void subjectsFollowTheTopicNameStrategy() {
    assertThat(Schemas.valueSubject("pg.compare.results")).isEqualTo("pg.compare.results-value");
    assertThat(Schemas.keySubject("pg.compare.results")).isEqualTo("pg.compare.results-key");
    assertThat(Schemas.subject("t", true)).isEqualTo("t-key");
    assertThat(Schemas.subject("t", false)).isEqualTo("t-value");
    assertThatThrownBy(() -> Schemas.subject("", false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void schemaOfRefusesAClassThatIsNotGenerated() {
    assertThatThrownBy(() -> Schemas.schemaOf(HandWritten.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(HandWritten.class.getName())
        .hasMessageContaining("getClassSchema");
  }

  @Test
  void everyNamedTypeAndFieldIsDocumented() {
    // Given
    List<String> undocumented = new ArrayList<>();
    Set<String> seen = new HashSet<>();

    // When
    for (Schemas.Entry entry : Schemas.all()) {
      collectUndocumented(entry.schema(), seen, undocumented);
    }

    // Then
    assertThat(seen)
        .contains(
            "io.cdccompare.schemas.avro.RowCounts",
            "io.cdccompare.schemas.avro.SourcePosition",
            "io.cdccompare.schemas.avro.HashRecordLocation",
            "io.cdccompare.schemas.avro.TaskKind");
    assertThat(undocumented).isEmpty();
  }

  @Test
  void everyNamedTypeLivesInTheSchemasNamespace() {
    Set<String> seen = new HashSet<>();
    for (Schemas.Entry entry : Schemas.all()) {
      collectUndocumented(entry.schema(), seen, new ArrayList<>());
    }
    assertThat(seen).allMatch(name -> name.startsWith("io.cdccompare.schemas.avro."));
  }

  @Test
  void everyNullableFieldDefaultsToNull() {
    // Given
    List<String> wrong = new ArrayList<>();

    // When
    for (Schemas.Entry entry : Schemas.all()) {
      for (Schema.Field field : entry.schema().getFields()) {
        if (field.schema().isNullable()) {
          boolean nullFirst = field.schema().getTypes().get(0).getType() == Schema.Type.NULL;
          if (!nullFirst || field.defaultVal() != JsonProperties.NULL_VALUE) {
            wrong.add(entry.schema().getName() + "." + field.name());
          }
        }
      }
    }

    // Then
    assertThat(wrong).isEmpty();
  }

  private static void collectUndocumented(Schema schema, Set<String> seen, List<String> out) {
    switch (schema.getType()) {
      case RECORD -> {
        if (!seen.add(schema.getFullName())) {
          return;
        }
        requireDoc(schema.getDoc(), schema.getFullName(), out);
        for (Schema.Field field : schema.getFields()) {
          requireDoc(field.doc(), schema.getName() + "." + field.name(), out);
          collectUndocumented(field.schema(), seen, out);
        }
      }
      case ENUM -> {
        if (seen.add(schema.getFullName())) {
          requireDoc(schema.getDoc(), schema.getFullName(), out);
        }
      }
      case UNION -> schema.getTypes().forEach(t -> collectUndocumented(t, seen, out));
      case ARRAY -> collectUndocumented(schema.getElementType(), seen, out);
      case MAP -> collectUndocumented(schema.getValueType(), seen, out);
      default -> {}
    }
  }

  private static void requireDoc(String doc, String what, List<String> out) {
    if (doc == null || doc.isBlank()) {
      out.add(what);
    }
  }

  /** Implements the interface without being generated: no static getClassSchema(). */
  private abstract static class HandWritten implements SpecificRecord {}
}
