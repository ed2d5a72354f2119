package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;

/**
 * {@code trim}, {@code ltrim}, {@code rtrim}: remove blanks (U+0020, as SQL's {@code TRIM} without
 * characters does) from both ends, the start or the end. Trailing blanks are already ignored by the
 * canonical text; {@code rtrim} exists so that configurations written for other tools keep working.
 */
public record TrimFunction(boolean leading, boolean trailing) implements ColumnFunction {

  public static final TrimFunction TRIM = new TrimFunction(true, true);
  public static final TrimFunction LTRIM = new TrimFunction(true, false);
  public static final TrimFunction RTRIM = new TrimFunction(false, true);

  public TrimFunction {
    if (!leading && !trailing) {
      throw new IllegalArgumentException("a trim removes blanks from at least one end");
    }
  }

  @Override
  public String name() {
    return leading && trailing ? "trim" : leading ? "ltrim" : "rtrim";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return StringFunctions.appliesTo(type);
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    int start = 0;
    int end = canonical.length();
    if (leading) {
      while (start < end && canonical.charAt(start) == ' ') {
        start++;
      }
    }
    if (trailing) {
      while (end > start && canonical.charAt(end - 1) == ' ') {
        end--;
      }
    }
    return canonical.substring(start, end);
  }

  @Override
  public String spec() {
    return name();
  }
}
