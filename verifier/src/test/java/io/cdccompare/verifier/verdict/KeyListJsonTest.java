package io.cdccompare.verifier.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyListJsonTest {

  @Test
  void everyCharacterOfAKeySurvivesTheRoundTrip() {
    // Given keys with quotes, escapes, separators, control and non-BMP characters
    List<String> keys = List.of("1,a\\,b", "\"quoted\"", "tab\there", "nul\u0000", "😀 José", "");

    // When they are written as JSON and read back
    String json = KeyListJson.write(keys);

    // Then the same keys come back
    assertThat(KeyListJson.read(json)).isEqualTo(keys);
  }

  @Test
  void anEmptyListIsAnEmptyArray() {
    // Given no key
    // When the list is written
    // Then it is an empty JSON array
    assertThat(KeyListJson.write(List.of())).isEqualTo("[]");
    assertThat(KeyListJson.read("[]")).isEmpty();
  }

  @Test
  void somethingElseThanAnArrayOfStringsIsRefused() {
    // Given JSON that is not an array of strings
    // When it is read
    // Then it is refused
    assertThatThrownBy(() -> KeyListJson.read("[1]")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyListJson.read("{}")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyListJson.read("[\"a\"] x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
