package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.LogicalType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code round(n)}: the canonical decimal text rounded to {@code n} fractional digits, halves away
 * from zero (SQL's {@code ROUND} on numeric), then written canonically again ({@code round(1)} of
 * {@code 2.25} is {@code 2.3}, of {@code 2.04} is {@code 2}). A negative {@code n} rounds to tens,
 * hundreds... A float is rounded from its canonical (shortest) decimal, not from its binary value,
 * so {@code round(2)} of the double {@code 2.675} is {@code 2.68} on every side. {@code NaN} and
 * the infinities are left as they are.
 */
public record Round(int digits) implements ColumnFunction {

  public static final int MAX_DIGITS = 1000;

  public Round {
    if (Math.abs(digits) > MAX_DIGITS) {
      throw new IllegalArgumentException(
          "round: digits must be within -" + MAX_DIGITS + ".." + MAX_DIGITS + ", was " + digits);
    }
  }

  @Override
  public String name() {
    return "round";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return type.family().isNumeric();
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    if (canonical.isEmpty() || !isFinite(canonical)) {
      return canonical;
    }
    BigDecimal rounded = new BigDecimal(canonical).setScale(digits, RoundingMode.HALF_UP);
    return CanonicalValues.canonical(LogicalType.DECIMAL, rounded);
  }

  private static boolean isFinite(String canonical) {
    return !canonical.equals("NaN") && !canonical.endsWith("Infinity");
  }

  @Override
  public String spec() {
    return "round(" + digits + ")";
  }
}
