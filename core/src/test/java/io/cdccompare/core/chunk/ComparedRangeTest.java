package io.cdccompare.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ComparedRangeTest {

  @Test
  void aFullChunkCoversTheKeysAfterThePreviousChunkUpToItsOwnLastKey() {
    ComparedRange range = ComparedRange.after("10", "20");
    assertThat(range.lower()).isEqualTo("10");
    assertThat(range.lowerInclusive()).isFalse();
    assertThat(range.upper()).isEqualTo("20");
    assertThat(range).hasToString("(10, 20]");
  }

  @Test
  void theFirstChunkIsOpenBelowAndTheLastOpenAbove() {
    assertThat(ComparedRange.after(null, "20").boundedBelow()).isFalse();
    assertThat(ComparedRange.after("20", null).boundedAbove()).isFalse();
    assertThat(ComparedRange.after(null, null)).isEqualTo(ComparedRange.EVERYTHING);
    assertThat(ComparedRange.EVERYTHING).hasToString("(-inf, +inf)");
  }

  @Test
  void aSampledChunkComparesItsSliceWithBothBoundsIncluded() {
    ComparedRange range = ComparedRange.between("3,a", "3,z");
    assertThat(range.lowerInclusive()).isTrue();
    assertThat(range).hasToString("[3,a, 3,z]");
    assertThatThrownBy(() -> ComparedRange.between(null, "1"))
        .hasMessage("a sampled range has both bounds");
  }

  @Test
  void refusesAnInclusiveBoundThatIsNotThere() {
    assertThatThrownBy(() -> new ComparedRange(null, true, "1"))
        .hasMessage("a range open below has no inclusive lower bound");
  }
}
