package io.cdccompare.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.RowCounts;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryTest {

  @Test
  void oneSchemaHasOneIdAcrossSubjects() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    int a = registry.register("a-value", Marker.getClassSchema());
    int b = registry.register("b-value", Marker.getClassSchema());
    int c = registry.register("a-value", RowCounts.getClassSchema());

    assertThat(a).isEqualTo(b).isEqualTo(1);
    assertThat(c).isEqualTo(2);
    assertThat(registry.schemaById(2)).isEqualTo(RowCounts.getClassSchema());
    assertThat(registry.versions("a-value")).containsExactly(1, 2);
  }

  @Test
  void lookupsOfWhatWasNotRegisteredAreNotFound() {
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    registry.register("b-value", Marker.getClassSchema());

    assertThatThrownBy(() -> registry.idOf("a-value", Marker.getClassSchema()))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40401))
        .hasMessageContaining("subject 'a-value' not found");
    assertThatThrownBy(() -> registry.idOf("b-value", RowCounts.getClassSchema()))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40403));
    assertThatThrownBy(() -> registry.schemaById(2))
        .isInstanceOfSatisfying(
            SchemaRegistryException.class, e -> assertThat(e.notFound()).isTrue());
  }
}
