package io.cdccompare.core.rowhash;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShortestDecimalTest {

  @ParameterizedTest
  @CsvSource({
    "0.1, 0.1",
    "1.5, 1.5",
    "100.0, 100",
    "1.0E-5, 0.00001",
    "1.0E20, 100000000000000000000",
    "-2.5, -2.5",
    "123456.789, 123456.789",
    "0.30000000000000004, 0.30000000000000004",
    "2.0E-3, 0.002",
    "1.0E23, 100000000000000000000000",
    "2.82879384806159E17, 282879384806159000"
  })
  void writesDoublesAsShortestPlainDecimal(double value, String expected) {
    // Given a double

    // When it is written
    String text = ShortestDecimal.of(value);

    // Then it is the shortest decimal in plain notation
    assertThat(text).isEqualTo(expected);
  }

  @Test
  void writesTheLargestDoubleInPlainNotation() {
    // Given the largest finite double, 1.7976931348623157E308
    double value = Double.MAX_VALUE;

    // When it is written
    String text = ShortestDecimal.of(value);

    // Then its 17 significant digits are followed by 292 zeros, without exponent
    assertThat(text).isEqualTo("17976931348623157" + "0".repeat(292));
  }

  @Test
  void writesSingleFloatWithItsOwnShortestDigits() {
    // Given the float nearest to 0.1, whose double value is 0.10000000149011612

    // When it is written as a float
    String text = ShortestDecimal.of(0.1f);

    // Then the float's own shortest decimal is used
    assertThat(text).isEqualTo("0.1");
  }

  @Test
  void writesTheSmallestSubnormalDoubleExactlyEnoughToReadBack() {
    // Given the smallest positive double
    double value = Double.MIN_VALUE;

    // When it is written
    String text = ShortestDecimal.of(value);

    // Then one significant digit suffices and it reads back
    assertThat(text).startsWith("0.000").endsWith("5").hasSize(326);
    assertThat(Double.parseDouble(text)).isEqualTo(value);
  }

  @Test
  void fixesJava17sTooLongOutputFor2E23() {
    // Given 2e23, which Java 17 prints with 17 significant digits (JDK-4511638)
    double value = 2e23;

    // When it is written
    String text = ShortestDecimal.of(value);

    // Then the single digit 2 is used
    assertThat(text).isEqualTo("200000000000000000000000");
  }

  @Test
  void writesSpecialValuesAsDesignSpellsThem() {
    // Given the special doubles and floats
    // When they are written
    // Then they are spelled NaN, Infinity, -Infinity and negative zero is 0
    assertThat(ShortestDecimal.of(Double.NaN)).isEqualTo("NaN");
    assertThat(ShortestDecimal.of(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(ShortestDecimal.of(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(ShortestDecimal.of(-0.0d)).isEqualTo("0");
    assertThat(ShortestDecimal.of(-0.0f)).isEqualTo("0");
    assertThat(ShortestDecimal.of(Float.NaN)).isEqualTo("NaN");
  }

  @Test
  void randomDoublesReadBackAndNoShorterDecimalDoes() {
    // Given 50 000 doubles from random bit patterns and from random short decimals
    SplittableRandom random = new SplittableRandom(20240601);
    for (int i = 0; i < 50_000; i++) {
      double value =
          i % 2 == 0
              ? Double.longBitsToDouble(random.nextLong())
              : random.nextInt(1_000_000) / Math.pow(10, random.nextInt(12));
      if (Double.isNaN(value) || Double.isInfinite(value) || value == 0) {
        continue;
      }

      // When each is written
      String text = ShortestDecimal.of(value);

      // Then it reads back and one digit less never does
      BigDecimal decimal = new BigDecimal(text);
      assertThat(decimal.doubleValue()).as(text).isEqualTo(value);
      assertNoShorterReadsBack(decimal, d -> d.doubleValue() == value);
    }
  }

  @Test
  void randomFloatsReadBackAndNoShorterDecimalDoes() {
    // Given 50 000 floats from random bit patterns and from random short decimals
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 50_000; i++) {
      float value =
          i % 2 == 0
              ? Float.intBitsToFloat(random.nextInt())
              : (float) (random.nextInt(100_000) / Math.pow(10, random.nextInt(8)));
      if (Float.isNaN(value) || Float.isInfinite(value) || value == 0) {
        continue;
      }

      // When each is written
      String text = ShortestDecimal.of(value);

      // Then it reads back as a float and one digit less never does
      BigDecimal decimal = new BigDecimal(text);
      assertThat(decimal.floatValue()).as(text).isEqualTo(value);
      assertNoShorterReadsBack(decimal, d -> d.floatValue() == value);
    }
  }

  private static void assertNoShorterReadsBack(
      BigDecimal decimal, java.util.function.Predicate<BigDecimal> readsBack) {
    int precision = decimal.stripTrailingZeros().precision();
    if (precision == 1) {
      return;
    }
    MathContext down = new MathContext(precision - 1, RoundingMode.FLOOR);
    MathContext up = new MathContext(precision - 1, RoundingMode.CEILING);
    BigDecimal abs = decimal.abs();
    assertThat(readsBack.test(abs.round(down).multiply(BigDecimal.valueOf(decimal.signum()))))
        .as("shorter below " + decimal)
        .isFalse();
    assertThat(readsBack.test(abs.round(up).multiply(BigDecimal.valueOf(decimal.signum()))))
        .as("shorter above " + decimal)
        .isFalse();
  }
}
