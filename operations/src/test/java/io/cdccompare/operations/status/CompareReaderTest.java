package io.cdccompare.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.report.read.ReportFixtures;
import io.cdccompare.schemas.avro.ReportEntry;
import org.junit.jupiter.api.Test;

class CompareReaderTest {

  @Test
  void aTaskThatComparedNothingShowsSo() {
    // Given the task entry of a target whose table compared none of its rows
    ReportEntry entry = ReportFixtures.nothingCompared(ReportFixtures.PG, null, 10);

    // When
    CompareStatus.Entry shown = CompareReader.entry(entry);

    // Then
    assertThat(shown.status()).isEqualTo("NOTHING_COMPARED");
    assertThat(shown.chunksNoted()).isEqualTo(1);
    assertThat(shown.chunksVerified()).isEqualTo(1);
  }
}
