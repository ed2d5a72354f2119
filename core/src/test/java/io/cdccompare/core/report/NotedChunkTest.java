package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NotedChunkTest {

  @Test
  void moreComparedRowsThanReadAreRefused() {
    // Given
    // When
    // Then
    assertThatThrownBy(() -> new NotedChunk(10, 11, new RunSlice(0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("11 of 10");
  }

  @Test
  void aSliceOutsideItsCountIsRefused() {
    // Given
    // When
    // Then
    assertThatThrownBy(() -> new RunSlice(3, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slice must be 0..2 of 3 slices, was 3");
  }
}
