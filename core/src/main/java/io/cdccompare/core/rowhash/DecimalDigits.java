package io.cdccompare.core.rowhash;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A positive decimal {@code unscaled × 10^exponent} without trailing zeros in unscaled, and its
 * plain notation. Used by {@link ShortestDecimal}.
 */
record DecimalDigits(long unscaled, int exponent, int digitCount) {

  /** Parses the output of {@link Double#toString} / {@link Float#toString} of a positive value. */
  static DecimalDigits parse(String text) {
    long unscaled = 0;
    int exponent = 0;
    boolean afterPoint = false;
    int i = 0;
    for (; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '.') {
        afterPoint = true;
      } else if (c == 'E') {
        exponent += Integer.parseInt(text.substring(i + 1));
        break;
      } else {
        int digit = c - '0';
        unscaled = unscaled * 10 + digit;
        if (afterPoint) {
          exponent--;
        }
      }
    }
    return strip(unscaled, exponent);
  }

  /** {@code unscaled × 10^exponent} for a positive unscaled, trailing zeros moved out. */
  static DecimalDigits strip(long unscaled, int exponent) {
    while (unscaled % 10 == 0) {
      unscaled /= 10;
      exponent++;
    }
    int digits = 1;
    for (long rest = unscaled / 10; rest > 0; rest /= 10) {
      digits++;
    }
    return new DecimalDigits(unscaled, exponent, digits);
  }

  static DecimalDigits of(BigDecimal positive) {
    BigDecimal stripped = positive.stripTrailingZeros();
    BigInteger unscaled = stripped.unscaledValue();
    return new DecimalDigits(unscaled.longValueExact(), -stripped.scale(), stripped.precision());
  }

  String toPlain(boolean negative) {
    StringBuilder out = new StringBuilder(digitCount + Math.abs(exponent) + 3);
    appendPlain(negative, out);
    return out.toString();
  }

  void appendPlain(boolean negative, StringBuilder out) {
    if (exponent >= 0 || digitCount > -exponent) {
      appendPlainWithoutLeadingZeros(negative, out);
      return;
    }
    if (negative) {
      out.append('-');
    }
    out.append("0.");
    for (int i = digitCount; i < -exponent; i++) {
      out.append('0');
    }
    out.append(unscaled);
  }

  private void appendPlainWithoutLeadingZeros(boolean negative, StringBuilder out) {
    if (exponent >= 0) {
      if (negative) {
        out.append('-');
      }
      out.append(unscaled);
      for (int i = 0; i < exponent; i++) {
        out.append('0');
      }
      return;
    }
    long divisor = 1;
    for (int i = 0; i < -exponent; i++) {
      divisor *= 10;
    }
    if (negative) {
      out.append('-');
    }
    out.append(unscaled / divisor).append('.');
    long fraction = unscaled % divisor;
    for (long pad = divisor / 10; pad > fraction && pad > 1; pad /= 10) {
      out.append('0');
    }
    out.append(fraction);
  }
}
