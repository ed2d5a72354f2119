package io.cdccompare.core.rowhash;

import java.math.BigDecimal;
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
      DecimalDigits shortest = fewFractionDigits(abs);
      if (shortest == null) {
        DecimalDigits candidate = DecimalDigits.parse(Double.toString(abs));
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
  private static DecimalDigits fewFractionDigits(double abs) {
    for (int p = 0; p <= 22; p++) {
      double scaled = abs * DOUBLE_POWERS[p];
      if (scaled >= 0x1p50) {
        return null;
      }
      double rounded = Math.rint(scaled);
      if (rounded / DOUBLE_POWERS[p] == abs) {
        DecimalDigits digits = DecimalDigits.strip((long) rounded, -p);
        return digits.digitCount() <= 15 ? digits : null;
      }
    }
    return null;
  }

  /** The same for floats: float arithmetic, at most 6 significant digits. */
  private static DecimalDigits fewFractionDigits(float abs) {
    for (int p = 0; p <= 10; p++) {
      double scaled = abs * DOUBLE_POWERS[p];
      if (scaled >= 0x1p21) {
        return null;
      }
      float rounded = (float) Math.rint(scaled);
      if (rounded / FLOAT_POWERS[p] == abs) {
        DecimalDigits digits = DecimalDigits.strip((long) rounded, -p);
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
    DecimalDigits shortest = fewFractionDigits(abs);
    if (shortest == null) {
      DecimalDigits candidate = DecimalDigits.parse(Float.toString(abs));
      shortest = isProvenShortest(candidate, abs) ? candidate : searchShortest(abs);
    }
    return shortest.toPlain(value < 0);
  }

  /**
   * True when the candidate reads back to {@code abs} and no decimal with one digit less does. With
   * at most 15 digits, decimals of that length are farther apart than one ulp of a double, so at
   * most one of them reads back: the candidate is then also the closest.
   */
  private static boolean isProvenShortest(DecimalDigits candidate, double abs) {
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
  private static boolean isProvenShortest(DecimalDigits candidate, float abs) {
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

  private static DecimalDigits searchShortest(double abs) {
    BigDecimal exact = new BigDecimal(abs);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal best = closestReadingBack(exact, precision, c -> c.doubleValue() == abs);
      if (best != null) {
        return DecimalDigits.of(best);
      }
    }
    throw new IllegalStateException("no round-trip decimal for " + abs);
  }

  private static DecimalDigits searchShortest(float abs) {
    BigDecimal exact = new BigDecimal(abs);
    for (int precision = 1; precision <= 9; precision++) {
      BigDecimal best = closestReadingBack(exact, precision, c -> c.floatValue() == abs);
      if (best != null) {
        return DecimalDigits.of(best);
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
}
