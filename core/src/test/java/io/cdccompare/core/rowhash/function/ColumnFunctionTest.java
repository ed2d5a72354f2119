package io.cdccompare.core.rowhash.function;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.LogicalType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnFunctionTest {

  private static String apply(String spec, LogicalType type, String canonical) {
    return ColumnFunctionParser.parse(spec).apply(type, canonical);
  }

  @Test
  void caseFunctionsIgnoreTheJvmLocale() {
    // Given an i under a Turkish default locale
    java.util.Locale previous = java.util.Locale.getDefault();
    java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr"));
    try {
      // When it is upper-cased
      // Then it is a plain I
      assertThat(apply("upper", LogicalType.TEXT, "istanbul")).isEqualTo("ISTANBUL");
    } finally {
      java.util.Locale.setDefault(previous);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "trim|'  a b  '|a b",
        "ltrim|'  a b  '|'a b  '",
        "rtrim|'  a b  '|'  a b'",
        "trim|'\ta '|'\ta'"
      })
  void trimsRemoveBlanksOnly(String spec, String input, String expected) {
    // Given text with blanks (and a tab, which is not a blank)
    // When it is trimmed
    // Then only U+0020 goes, from the chosen ends
    assertThat(apply(spec, LogicalType.TEXT, input)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "substr(1,3)|abcdef|abc",
        "substr(3)|abcdef|cdef",
        "substr(5,10)|abcdef|ef",
        "substr(7,1)|abcdef|''",
        "substr(2,2)|a😀b😀|😀b",
        "substr(1,0)|abc|''"
      })
  void substrCountsCodePointsFromOne(String spec, String input, String expected) {
    // Given text, emoji included
    // When a substring is taken
    // Then positions are 1-based code points
    assertThat(apply(spec, LogicalType.VARCHAR, input)).isEqualTo(expected);
  }

  @Test
  void replaceIsLiteralAndReplacesEveryOccurrence() {
    // Given text with a regex metacharacter repeated
    // When it is replaced
    // Then every literal occurrence goes
    assertThat(apply("replace('.','')", LogicalType.TEXT, "a.b.c")).isEqualTo("abc");
  }

  @ParameterizedTest
  @CsvSource({
    "round(2), 2.675, 2.68",
    "round(1), 2.25, 2.3",
    "round(1), -2.25, -2.3",
    "round(1), 2.04, 2",
    "round(0), 0.5, 1",
    "round(-2), 1250, 1300",
    "round(2), -0.001, 0",
    "round(2), NaN, NaN",
    "round(2), -Infinity, -Infinity"
  })
  void roundIsHalfAwayFromZeroOnTheCanonicalDecimal(String spec, String input, String expected) {
    // Given a canonical number
    // When it is rounded
    // Then halves go away from zero and the result is canonical again
    assertThat(apply(spec, LogicalType.DOUBLE, input)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    "truncate(second), TIMESTAMP, 2024-05-01 10:15:30.999999, 2024-05-01 10:15:30",
    "truncate(millisecond), TIMESTAMP_TZ, 2024-05-01 10:15:30.123456, 2024-05-01 10:15:30.123",
    "truncate(day), TIMESTAMP, 2024-05-01 10:15:30, 2024-05-01 00:00:00",
    "truncate(month), TIMESTAMP, 2024-05-21 10:15:30, 2024-05-01 00:00:00",
    "truncate(year), DATE, 2024-05-21, 2024-01-01",
    "truncate(minute), TIME, 10:15:30.5, 10:15:00",
    "truncate(second), TIME, 24:00:00, 24:00:00",
    "truncate(second), TIME, -01:00:00.5, -01:00:00",
    "truncate(hour), TIMESTAMP, Infinity, Infinity"
  })
  void truncateCutsTemporalTextsTowardZero(
      String spec, LogicalType type, String input, String expected) {
    // Given a canonical date, time or timestamp
    // When it is truncated
    // Then the finer fields are zero and the text canonical again
    assertThat(apply(spec, type, input)).isEqualTo(expected);
  }

  @Test
  void functionsDeclareTheTypesTheyFit() {
    // Given each kind of function
    // When asked about types
    // Then string functions fit text, numeric ones numbers, truncate fitting units only
    assertThat(ColumnFunctionParser.parse("upper").appliesTo(LogicalType.CHAR)).isTrue();
    assertThat(ColumnFunctionParser.parse("upper").appliesTo(LogicalType.DECIMAL)).isFalse();
    assertThat(ColumnFunctionParser.parse("substr(1,2)").appliesTo(LogicalType.TIMESTAMP))
        .isFalse();
    assertThat(ColumnFunctionParser.parse("round(2)").appliesTo(LogicalType.REAL)).isTrue();
    assertThat(ColumnFunctionParser.parse("round(2)").appliesTo(LogicalType.TEXT)).isFalse();
    assertThat(ColumnFunctionParser.parse("truncate(hour)").appliesTo(LogicalType.DATE)).isFalse();
    assertThat(ColumnFunctionParser.parse("truncate(day)").appliesTo(LogicalType.TIME)).isFalse();
    assertThat(ColumnFunctionParser.parse("truncate(month)").appliesTo(LogicalType.DATE)).isTrue();
    assertThat(ColumnFunctionParser.parse("truncate(second)").appliesTo(LogicalType.BIGINT))
        .isFalse();
  }
}
