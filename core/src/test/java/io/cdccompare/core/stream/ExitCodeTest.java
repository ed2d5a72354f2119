package io.cdccompare.core.stream;

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

  @Test
  void theWorseOfTwoOutcomesWinsInTheDocumentedOrder() {
    assertThat(ExitCode.worse(0, 3)).isEqualTo(3);
    assertThat(ExitCode.worse(5, 3)).isEqualTo(3);
    assertThat(ExitCode.worse(3, 4)).isEqualTo(4);
    assertThat(ExitCode.worse(4, 5)).isEqualTo(4);
    assertThat(ExitCode.worse(0, 5)).isEqualTo(5);
    assertThat(ExitCode.worse(4, 130)).isEqualTo(130);
    assertThat(ExitCode.worse(0, 0)).isZero();
    assertThat(ExitCode.worse(0, 77)).as("an unknown code is a failure").isEqualTo(77);
  }
}
