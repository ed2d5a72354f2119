package io.cdccompare.core.rowhash.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ColumnFunctionParserTest {

  @Test
  void parsesEveryKnownFunction() {
    // Given the spec of each known function
    // When each is parsed
    // Then it is the function with its arguments
    assertThat(ColumnFunctionParser.parse("upper")).isEqualTo(CaseFunction.UPPER);
    assertThat(ColumnFunctionParser.parse("LOWER")).isEqualTo(CaseFunction.LOWER);
    assertThat(ColumnFunctionParser.parse("trim")).isEqualTo(TrimFunction.TRIM);
    assertThat(ColumnFunctionParser.parse("ltrim()")).isEqualTo(TrimFunction.LTRIM);
    assertThat(ColumnFunctionParser.parse("rtrim")).isEqualTo(TrimFunction.RTRIM);
    assertThat(ColumnFunctionParser.parse("substr(1,10)")).isEqualTo(new Substr(1, 10));
    assertThat(ColumnFunctionParser.parse(" substr( 3 ) ")).isEqualTo(new Substr(3, Substr.TO_END));
    assertThat(ColumnFunctionParser.parse("replace('a,b', 'it''s')"))
        .isEqualTo(new Replace("a,b", "it's"));
    assertThat(ColumnFunctionParser.parse("round(2)")).isEqualTo(new Round(2));
    assertThat(ColumnFunctionParser.parse("round(-1)")).isEqualTo(new Round(-1));
    assertThat(ColumnFunctionParser.parse("truncate(seconds)"))
        .isEqualTo(new Truncate(TruncateUnit.SECOND));
    assertThat(ColumnFunctionParser.parse("truncate('day')"))
        .isEqualTo(new Truncate(TruncateUnit.DAY));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "upper",
        "substr(2,5)",
        "substr(2)",
        "replace('a''b',',')",
        "round(3)",
        "truncate(millisecond)"
      })
  void specOfAParsedFunctionParsesBackToIt(String spec) {
    // Given a parsed function
    ColumnFunction function = ColumnFunctionParser.parse(spec);

    // When its spec is parsed again
    // Then the same function comes back
    assertThat(ColumnFunctionParser.parse(function.spec())).isEqualTo(function);
  }

  @Test
  void unknownFunctionIsRefusedListingTheKnownOnes() {
    // Given a misspelt function
    // When it is parsed
    // Then it is refused by name with the known names
    assertThatThrownBy(() -> ColumnFunctionParser.parse("uper"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown function 'uper'")
        .hasMessageContaining("upper, lower");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "upper(1)",
        "substr()",
        "substr(0,3)",
        "substr(1,-2)",
        "substr('a')",
        "replace('a')",
        "replace('','b')",
        "replace(a,b)",
        "round(x)",
        "round(1,2)",
        "truncate(fortnight)",
        "truncate()",
        "round(2",
        "replace('a,'b')",
        "upper lower",
        ""
      })
  void malformedSpecsAreRefused(String spec) {
    // Given a spec with wrong arguments or syntax
    // When it is parsed
    // Then it is refused
    assertThatThrownBy(() -> ColumnFunctionParser.parse(spec))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
