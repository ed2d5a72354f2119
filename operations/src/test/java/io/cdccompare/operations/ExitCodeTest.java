package io.cdccompare.operations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ExitCodeTest {
  @Test
  void theCodesAreTheDocumentedOnes() {
    // The README's "Exit codes" table: scripts depend on these numbers
    assertThat(Arrays.stream(ExitCode.values()).mapToInt(ExitCode::code))
        .containsExactly(0, 1, 2, 3, 4, 5, 130);
  }

  @Test
  void everyCodeSaysWhatItMeans() {
    assertThat(ExitCode.values()).allSatisfy(code -> assertThat(code.meaning()).isNotBlank());
  }
}
