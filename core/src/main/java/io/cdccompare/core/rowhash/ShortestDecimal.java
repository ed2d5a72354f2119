package io.cdccompare.core.rowhash;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Writes a {@code double} or a {@code float} as the shortest decimal that reads back to exactly the
 * same value, in plain notation ({@code 1.0E-5} is written {@code 0.00001}, {@code 1.0E20} is
 * written {@code 100000000000000000000}); among several shortest decimals the one closest to the
 * exact binary value wins. {@code NaN}, {@code Infinity}, {@code -Infinity} are spelled so and
 * {@code -0} is written {@code 0}.
 *
 * <p>Java 17's {@link Double#toString(double)} does not always give the shortest digits
 * (JDK-4511638, fixed in Java 19), so its digits are only a candidate: a fast exact check
 * (Clinger's fast path: both operands exact, one correctly rounded operation) proves the candidate
 * reads back and that no decimal one digit shorter does; anything the fast path cannot prove goes
 * to an exact {@link BigDecimal} search. Stateless and thread-safe.
 */
final class ShortestDecimal {

  private static final double[] DOUBLE_POWERS = new double[23];
  private static final float[] FLOAT_POWERS = new float[11];

  static {
    double d = 1;
    for (int i = 0; i < DOUBLE_POWERS.length; i++) {
      DOUBLE_POWERS[i] = d;
      d *= 10;
    }
    float f = 1;
    for (int i = 0; i < FLOAT_POWERS.length; i++) {
      FLOAT_POWERS[i] = f;
      f *= 10;
    }
  }

  private ShortestDecimal() {}

  static String of(double value) {
    StringBuilder out = new StringBuilder(24);
    append(value, out);
    return out.toString();
  }

  static void append(double value, StringBuilder out) {
    if (Double.isNaN(value)) {
      out.append("NaN");
    } else if (Double.isInfinite(value)) {
      out.append(value > 0 ? "Infinity" : "-Infinity");
    } else if (value == 0) {
      out.append('0');
    } else {
      double abs = Math.abs(value);
      Digits shortest = fewFractionDigits(abs);
      if (shortest == null) {
        Digits candidate = Digits.parse(Double.toString(abs));
        shortest = isProvenShortest(candidate, abs) ? candidate : searchShortest(abs);
      }
      shortest.appendPlain(value < 0, out);
    }
  }

  /**
   * The fastest path, for values such as {@code 12.5} or {@code 0.07}: the smallest number of
   * fractional digits {@code p} for which {@code rint(abs × 10^p) / 10^p} reads back. Below 2^50
   * the product's rounding error is far below 0.5, so if a decimal with {@code p} fractional digits
   * reads back, {@code rint} finds it; with at most 15 significant digits it is the only one. Null
   * when no such decimal exists in range.
   */
  private static Digits fewFractionDigits(double abs) {
    for (int p = 0; p <= 22; p++) {
      double scaled = abs * DOUBLE_POWERS[p];
      if (scaled >= 0x1p50) {
        return null;
      }
      double rounded = Math.rint(scaled);
      if (rounded / DOUBLE_POWERS[p] == abs) {
        Digits digits = Digits.strip((long) rounded, -p);
        return digits.digitCount() <= 15 ? digits : null;
      }
    }
    return null;
  }

  /** The same for floats: float arithmetic, at most 6 significant digits. */
  private static Digits fewFractionDigits(float abs) {
    for (int p = 0; p <= 10; p++) {
      double scaled = abs * DOUBLE_POWERS[p];
      if (scaled >= 0x1p21) {
        return null;
      }
      float rounded = (float) Math.rint(scaled);
      if (rounded / FLOAT_POWERS[p] == abs) {
        Digits digits = Digits.strip((long) rounded, -p);
        return digits.digitCount() <= 6 ? digits : null;
      }
    }
    return null;
  }

  static String of(float value) {
    if (Float.isNaN(value)) {
      return "NaN";
    }
    if (Float.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return "0";
    }
    float abs = Math.abs(value);
    Digits shortest = fewFractionDigits(abs);
    if (shortest == null) {
      Digits candidate = Digits.parse(Float.toString(abs));
      shortest = isProvenShortest(candidate, abs) ? candidate : searchShortest(abs);
    }
    return shortest.toPlain(value < 0);
  }

  /**
   * True when the candidate reads back to {@code abs} and no decimal with one digit less does. With
   * at most 15 digits, decimals of that length are farther apart than one ulp of a double, so at
   * most one of them reads back: the candidate is then also the closest.
   */
  private static boolean isProvenShortest(Digits candidate, double abs) {
    if (candidate.digitCount() > 15
        || !readsBack(candidate.unscaled(), candidate.exponent(), abs)) {
      return false;
    }
    if (candidate.digitCount() == 1) {
      return true;
    }
    long floor = candidate.unscaled() / 10;
    int exponent = candidate.exponent() + 1;
    return isKnownNotToReadBack(floor, exponent, abs)
        && isKnownNotToReadBack(floor + 1, exponent, abs);
  }

  /** Same proof for floats: at most 6 digits keeps same-length decimals over one ulp apart. */
  private static boolean isProvenShortest(Digits candidate, float abs) {
    if (candidate.digitCount() > 6 || !readsBack(candidate.unscaled(), candidate.exponent(), abs)) {
      return false;
    }
    if (candidate.digitCount() == 1) {
      return true;
    }
    long floor = candidate.unscaled() / 10;
    int exponent = candidate.exponent() + 1;
    return isKnownNotToReadBack(floor, exponent, abs)
        && isKnownNotToReadBack(floor + 1, exponent, abs);
  }

  private static boolean isKnownNotToReadBack(long unscaled, int exponent, double abs) {
    return inDoubleFastPath(unscaled, exponent) && !readsBack(unscaled, exponent, abs);
  }

  private static boolean isKnownNotToReadBack(long unscaled, int exponent, float abs) {
    return inFloatFastPath(unscaled, exponent) && !readsBack(unscaled, exponent, abs);
  }

  private static boolean inDoubleFastPath(long unscaled, int exponent) {
    return unscaled < (1L << 53) && exponent >= -22 && exponent <= 22;
  }

  private static boolean inFloatFastPath(long unscaled, int exponent) {
    return unscaled < (1L << 24) && exponent >= -10 && exponent <= 10;
  }

  /** Exact when {@link #inDoubleFastPath}: false otherwise (the caller then searches). */
  private static boolean readsBack(long unscaled, int exponent, double abs) {
    if (!inDoubleFastPath(unscaled, exponent)) {
      return false;
    }
    double value =
        exponent >= 0 ? unscaled * DOUBLE_POWERS[exponent] : unscaled / DOUBLE_POWERS[-exponent];
    return value == abs;
  }

  private static boolean readsBack(long unscaled, int exponent, float abs) {
    if (!inFloatFastPath(unscaled, exponent)) {
      return false;
    }
    float value =
        exponent >= 0 ? unscaled * FLOAT_POWERS[exponent] : unscaled / FLOAT_POWERS[-exponent];
    return value == abs;
  }

  private static Digits searchShortest(double abs) {
    BigDecimal exact = new BigDecimal(abs);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal best = closestReadingBack(exact, precision, c -> c.doubleValue() == abs);
      if (best != null) {
        return Digits.of(best);
      }
    }
    throw new IllegalStateException("no round-trip decimal for " + abs);
  }

  private static Digits searchShortest(float abs) {
    BigDecimal exact = new BigDecimal(abs);
    for (int precision = 1; precision <= 9; precision++) {
      BigDecimal best = closestReadingBack(exact, precision, c -> c.floatValue() == abs);
      if (best != null) {
        return Digits.of(best);
      }
    }
    throw new IllegalStateException("no round-trip decimal for " + abs);
  }

  private static BigDecimal closestReadingBack(
      BigDecimal exact, int precision, java.util.function.Predicate<BigDecimal> readsBack) {
    BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
    BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
    boolean downOk = readsBack.test(down);
    boolean upOk = readsBack.test(up);
    if (downOk && upOk) {
      int cmp = exact.subtract(down).compareTo(up.subtract(exact));
      if (cmp != 0) {
        return cmp < 0 ? down : up;
      }
      return down.unscaledValue().testBit(0) ? up : down;
    }
    return downOk ? down : upOk ? up : null;
  }

  /** A positive decimal {@code unscaled × 10^exponent} without trailing zeros in unscaled. */
  record Digits(long unscaled, int exponent, int digitCount) {

    /**
     * Parses the output of {@link Double#toString} / {@link Float#toString} of a positive value.
     */
    static Digits parse(String text) {
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
    static Digits strip(long unscaled, int exponent) {
      while (unscaled % 10 == 0) {
        unscaled /= 10;
        exponent++;
      }
      int digits = 1;
      for (long rest = unscaled / 10; rest > 0; rest /= 10) {
        digits++;
      }
      return new Digits(unscaled, exponent, digits);
    }

    static Digits of(BigDecimal positive) {
      BigDecimal stripped = positive.stripTrailingZeros();
      BigInteger unscaled = stripped.unscaledValue();
      return new Digits(unscaled.longValueExact(), -stripped.scale(), stripped.precision());
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
}
