package io.cdccompare.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReportKeyTest {

  @Test
  void plainNamesAreJoinedWithSlashes() {
    // Given
    // When
    String table = ReportKey.ofTable("nightly", "pg-replica", "public.orders");
    String task = ReportKey.ofTask("nightly", "pg-replica");

    // Then
    assertThat(table).isEqualTo("nightly/pg-replica/public.orders");
    assertThat(task).isEqualTo("nightly/pg-replica");
  }

  @Test
  void namesWithSlashesDoNotCollide() {
    // Given
    // When
    String left = ReportKey.ofTask("a/b", "c");
    String right = ReportKey.ofTask("a", "b/c");

    // Then
    assertThat(left).isEqualTo("a\\/b/c").isNotEqualTo(right);
    assertThat(ReportKey.names(left)).containsExactly("a/b", "c");
    assertThat(ReportKey.names(right)).containsExactly("a", "b/c");
  }

  @Test
  void escapedNamesReadBack() {
    // Given
    String path = ReportKey.path("t\\", "x/y", "", "s.\"T\"");

    // When
    // Then
    assertThat(ReportKey.names(path)).containsExactly("t\\", "x/y", "", "s.\"T\"");
  }

  @Test
  void aPrefixMatchesOnlyPathsUnderIt() {
    // Given
    String prefix = ReportKey.prefix("a");

    // When
    // Then
    assertThat(ReportKey.path("a", "x")).startsWith(prefix);
    assertThat(ReportKey.path("ab", "x")).doesNotStartWith(prefix);
    assertThat(ReportKey.path("a/b", "x")).doesNotStartWith(prefix);
  }

  @Test
  void aPathEndingInsideAnEscapeIsRefused() {
    // Given
    // When
    // Then
    assertThatThrownBy(() -> ReportKey.names("a\\"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ends inside an escape");
  }
}
