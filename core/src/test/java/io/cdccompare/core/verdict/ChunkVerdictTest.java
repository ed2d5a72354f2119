package io.cdccompare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkVerdictTest {

  @Test
  void keyListsAreSorted() {
    // Given keys in no order
    // When a verdict is made of them
    ChunkVerdict verdict =
        ChunkVerdict.of(4, List.of("b", "a"), List.of("z", "c"), List.of(), List.of("y", "x"));

    // Then each list is sorted and the counts follow the lists
    assertThat(verdict.failedKeys()).containsExactly("a", "b");
    assertThat(verdict.missedKeys()).containsExactly("c", "z");
    assertThat(verdict.inFlightKeys()).containsExactly("x", "y");
    assertThat(verdict.compared()).isEqualTo(10);
    assertThat(verdict.hasDifferences()).isTrue();
  }

  @Test
  void aCountMustEqualItsKeyList() {
    // Given two failed rows but one failed key
    // When the verdict is made
    // Then it is refused
    assertThatThrownBy(
            () -> new ChunkVerdict(0, 2, 0, 0, 0, List.of("a"), List.of(), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("failed counts 2 rows but keeps 1 keys");
  }

  @Test
  void countsAreNeverNegative() {
    // Given a negative matched count
    // When the verdict is made
    // Then it is refused
    assertThatThrownBy(() -> ChunkVerdict.of(-1, List.of(), List.of(), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("matched must not be negative");
  }

  @Test
  void aKeyHasOneOutcome() {
    // Given a key both failed and in flight
    // When the verdict is made
    // Then it is refused
    assertThatThrownBy(() -> ChunkVerdict.of(0, List.of("k"), List.of(), List.of(), List.of("k")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'k' has two outcomes");
  }

  @Test
  void aKeyIsListedOnce() {
    // Given the same missed key twice
    // When the verdict is made
    // Then it is refused
    assertThatThrownBy(() -> ChunkVerdict.of(0, List.of(), List.of("k", "k"), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than once");
  }

  @Test
  void keyListsCannotBeChangedAfterwards() {
    // Given a verdict made from a mutable list
    java.util.ArrayList<String> failed = new java.util.ArrayList<>(List.of("a"));
    ChunkVerdict verdict = ChunkVerdict.of(0, failed, List.of(), List.of(), List.of());

    // When the list is changed afterwards
    failed.add("b");

    // Then the verdict keeps its own copy, which refuses changes
    assertThat(verdict.failedKeys()).containsExactly("a");
    assertThatThrownBy(() -> verdict.failedKeys().add("c"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void keysKnownToHaveChangedMoveFromTheDifferencesToInFlight() {
    // Given a verdict with a failed, a missed, an extra and an in-flight key, one matched row
    ChunkVerdict verdict =
        ChunkVerdict.of(1, List.of("f1", "f2"), List.of("m1"), List.of("e1"), List.of("i1"));

    // When f2, m1 and e1 (and a key the verdict does not hold) turn out to have changed
    ChunkVerdict settled = verdict.withInFlight(java.util.Set.of("f2", "m1", "e1", "zz"));

    // Then they are in flight, f1 stays failed, the matched row stays matched
    assertThat(settled.failedKeys()).containsExactly("f1");
    assertThat(settled.missed()).isZero();
    assertThat(settled.extra()).isZero();
    assertThat(settled.inFlightKeys()).containsExactly("e1", "f2", "i1", "m1");
    assertThat(settled.matched()).isEqualTo(1);
    assertThat(settled.compared()).isEqualTo(verdict.compared());
    assertThat(verdict.withInFlight(java.util.Set.of("zz"))).isSameAs(verdict);
  }
}
