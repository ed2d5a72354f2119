package io.cdccompare.operations.explain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShownValueTest {
  @Test
  void controlAndInvisibleCharactersAreEscaped() {
    assertThat(ShownValue.of("a\tb\nc\\d\u0007e\u202Ef", false))
        .isEqualTo("a\\tb\\nc\\\\d\\u{0007}e\\u{202E}f");
  }

  @Test
  void aLongValueIsCutWithItsLength() {
    String shown = ShownValue.of("x".repeat(1000), false);
    assertThat(shown).isEqualTo("x".repeat(ShownValue.MAX_CHARS) + "… (1000 chars)");
  }

  @Test
  void nullEmptyAndMaskedValues() {
    assertThat(ShownValue.of(null, false)).isEqualTo("NULL");
    assertThat(ShownValue.of("", false)).isEqualTo("''");
    assertThat(ShownValue.of("alice@example.com", true))
        .matches("sha256:[0-9a-f]{16}")
        .isEqualTo(ShownValue.of("alice@example.com", true))
        .isNotEqualTo(ShownValue.of("bob@example.com", true));
  }
}
