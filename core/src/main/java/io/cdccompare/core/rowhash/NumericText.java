package io.cdccompare.core.rowhash;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Canonical text of integers and exact decimals: plain notation, no exponent, trailing fractional
 * zeros removed ({@code 1.50} is {@code 1.5}, {@code 2.000} is {@code 2}), no negative zero.
 * PostgreSQL's {@code numeric} special values are spelled {@code NaN}, {@code Infinity} and {@code
 * -Infinity}, like the floating-point ones.
 */
final class NumericText {

  private NumericText() {}

  static String integer(Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return Long.toString(((Number) value).longValue());
    }
    if (value instanceof Byte b) {
      return Integer.toString(b);
    }
    if (value instanceof BigInteger big) {
      return big.toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal(decimal);
    }
    throw CanonicalValues.unsupported(LogicalType.BIGINT, value);
  }

  static String decimal(Object value) {
    if (value instanceof BigDecimal decimal) {
      return decimal(decimal);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return Long.toString(((Number) value).longValue());
    }
    if (value instanceof BigInteger big) {
      return big.toString();
    }
    if (value instanceof String text) {
      return decimal(text);
    }
    throw CanonicalValues.unsupported(LogicalType.DECIMAL, value);
  }

  static String decimal(BigDecimal value) {
    if (value.signum() == 0) {
      return "0";
    }
    return value.stripTrailingZeros().toPlainString();
  }

  /** Same text as {@link #decimal(BigDecimal)}, computed in a long when the digits fit one. */
  static void appendDecimal(BigDecimal value, StringBuilder out) {
    int scale = value.scale();
    if (scale < 0 || scale > 18 || value.precision() > 18) {
      out.append(decimal(value));
      return;
    }
    long unscaled = value.unscaledValue().longValue();
    if (unscaled == 0) {
      out.append('0');
      return;
    }
    while (scale > 0 && unscaled % 10 == 0) {
      unscaled /= 10;
      scale--;
    }
    if (unscaled < 0) {
      out.append('-');
      unscaled = -unscaled;
    }
    if (scale == 0) {
      out.append(unscaled);
      return;
    }
    long divisor = 1;
    for (int i = 0; i < scale; i++) {
      divisor *= 10;
    }
    out.append(unscaled / divisor).append('.');
    String fraction = Long.toString(unscaled % divisor);
    for (int i = fraction.length(); i < scale; i++) {
      out.append('0');
    }
    out.append(fraction);
  }

  /** A decimal given as text, e.g. by Debezium's {@code decimal.handling.mode=string}. */
  static String decimal(String text) {
    String trimmed = text.strip();
    switch (trimmed) {
      case "NaN":
        return "NaN";
      case "Infinity":
      case "+Infinity":
        return "Infinity";
      case "-Infinity":
        return "-Infinity";
      default:
        try {
          return decimal(new BigDecimal(trimmed));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("not a decimal number: '" + text + "'", e);
        }
    }
  }

  static String real(Object value) {
    if (value instanceof Float f) {
      return ShortestDecimal.of(f.floatValue());
    }
    if (value instanceof Double d) {
      // a single-precision value delivered widened (e.g. by a connector) narrows back exactly
      return ShortestDecimal.of((float) d.doubleValue());
    }
    throw CanonicalValues.unsupported(LogicalType.REAL, value);
  }

  static String doublePrecision(Object value) {
    if (value instanceof Double d) {
      return ShortestDecimal.of(d.doubleValue());
    }
    if (value instanceof Float f) {
      return ShortestDecimal.of(f.doubleValue());
    }
    throw CanonicalValues.unsupported(LogicalType.DOUBLE, value);
  }

  static String bool(Object value) {
    if (value instanceof Boolean b) {
      return b ? "1" : "0";
    }
    if (value instanceof Number n && !(value instanceof Double) && !(value instanceof Float)) {
      // MariaDB tinyint(1) may hold 2..127 or negatives: those stay visible instead of becoming 1
      return integer(n);
    }
    throw CanonicalValues.unsupported(LogicalType.BOOLEAN, value);
  }
}
