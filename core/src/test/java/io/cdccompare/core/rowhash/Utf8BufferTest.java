package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Utf8BufferTest {

  @Test
  void encodesLikeStringGetBytesIncludingUnpairedSurrogates() {
    // Given random strings over ASCII, 2- and 3-byte characters, emoji and lone surrogates
    SplittableRandom random = new SplittableRandom(11);
    char[] alphabet = {
      'a', ',', '\\', 'é', 'ß', '€', '中', '\uD83D', '\uDE00', '\uDBFF', '\uDFFF', '\u0000'
    };
    Utf8Buffer buffer = new Utf8Buffer();
    for (int i = 0; i < 20_000; i++) {
      char[] chars = new char[random.nextInt(40)];
      for (int c = 0; c < chars.length; c++) {
        chars[c] = alphabet[random.nextInt(alphabet.length)];
      }
      String text = new String(chars);

      // When it is encoded
      buffer.encode(text);

      // Then the bytes equal the JDK's UTF-8 encoding
      assertThat(Arrays.copyOf(buffer.bytes(), buffer.length()))
          .as(text)
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
