package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TableRunTest {

  @Test
  void aRunIdThatSortsHigherIsNewer() {
    // Given
    TableRun run = TableRun.start("20260304T050607Z-a1b2c3", "FULL");

    // When
    // Then
    assertThat(run.isNewerThan("20260304T050606Z-ffffff")).isTrue();
    assertThat(run.isNewerThan("20260304T050607Z-a1b2c3")).isFalse();
    assertThat(run.isNewerThan("20260305T000000Z-000000")).isFalse();
  }

  @Test
  void eachNotedChunkAddsOneToCapture() {
    // Given
    TableRun run = TableRun.start("20260304T050607Z-a1b2c3", "FULL");

    // When
    TableRun twice = run.withCapturedChunk().withCapturedChunk();

    // Then
    assertThat(twice.captureChunks()).isEqualTo(2);
    assertThat(twice.runId()).isEqualTo(run.runId());
  }
}
