package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalJsonTest {

  private static String json(String text) {
    return CanonicalValues.canonical(LogicalType.JSON, text);
  }

  @Test
  void sortsKeysAndDropsWhiteSpace() {
    // Given a document as MariaDB keeps it (insertion order, white space)
    String mariadb = "{ \"b\" : [1, 2, {\"z\": true, \"a\": null}], \"a\" : \"x\" }";

    // When it is made canonical
    // Then keys are sorted at every level and no white space is left
    assertThat(json(mariadb)).isEqualTo("{\"a\":\"x\",\"b\":[1,2,{\"a\":null,\"z\":true}]}");
  }

  @Test
  void jsonbAndJsonTextOfOneDocumentAgree() {
    // Given PostgreSQL jsonb output (its own key order, spaces after colons) and the source text
    String jsonb = "{\"id\": 7, \"tags\": [\"a\", \"b\"], \"price\": 1.50}";
    String original = "{\"price\":1.5,\"tags\":[\"a\",\"b\"],\"id\":7}";

    // When both are made canonical
    // Then they are equal
    assertThat(json(jsonb)).isEqualTo(json(original));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1.0|1",
        "1e2|100",
        "-0|0",
        "-0.0|0",
        "2.50E-1|0.25",
        "12345678901234567890|12345678901234567890"
      })
  void numbersAreExactDecimalsInPlainNotation(String number, String expected) {
    // Given a JSON number in some spelling
    // When it is made canonical
    // Then it is the decimal's canonical text
    assertThat(json("[" + number + "]")).isEqualTo("[" + expected + "]");
  }

  @Test
  void repeatedKeyKeepsItsLastValueAsJsonbDoes() {
    // Given an object with a repeated key (allowed in json, collapsed by jsonb)
    // When it is made canonical
    // Then the last value wins
    assertThat(json("{\"a\":1,\"a\":2}")).isEqualTo("{\"a\":2}");
  }

  @Test
  void stringsKeepUnicodeLiteralAndEscapeOnlyWhatMustBe() {
    // Given escapes for é, a slash, a quote, a newline and a control character
    String text = "[\"\\u00e9\\/\\\"\\n\\u0001😀\"]";

    // When it is made canonical
    // Then é, / and the emoji are literal; quote, newline and control are escaped
    assertThat(json(text)).isEqualTo("[\"é/\\\"\\n\\u0001😀\"]");
  }

  @Test
  void keysAreSortedByCodePointNotByUtf16Unit() {
    // Given a key above U+FFFF and a key at U+FF5E, which UTF-16 order would swap
    String text = "{\"\uD83D\uDE00\":1,\"\uFF5E\":2}";

    // When it is made canonical
    // Then U+FF5E comes first, as in UTF-8 byte order
    assertThat(json(text)).isEqualTo("{\"\uFF5E\":2,\"\uD83D\uDE00\":1}");
  }

  @Test
  void scalarDocumentsAreAllowed() {
    // Given top-level scalars
    // When they are made canonical
    // Then they are written like nested ones; JSON null is not SQL NULL
    assertThat(json(" \"N\" ")).isEqualTo("\"N\"");
    assertThat(json("null")).isEqualTo("null");
    assertThat(json("10.0")).isEqualTo("10");
  }

  @Test
  void invalidJsonIsKeptAsTextAndCannotEqualAValidDocument() {
    // Given text that is not JSON, and trailing garbage after a document
    // When they are made canonical
    // Then the text is kept (trailing blanks dropped), never a valid canonical document
    assertThat(json("{a:1}  ")).isEqualTo("{a:1}");
    assertThat(json("{\"a\":1} x")).isEqualTo("{\"a\":1} x");
  }
}
