package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;

/**
 * {@code substr(from)} and {@code substr(from,length)}: the characters from position {@code from}
 * (1-based, as in SQL) on, at most {@code length} of them. Characters are Unicode code points, as
 * PostgreSQL and MariaDB ({@code utf8mb4}) count them, so an emoji is one character. A start past
 * the end gives the empty string.
 *
 * @param from first character, 1-based, at least 1
 * @param length how many characters at most, or {@code -1} for all the rest
 */
public record Substr(int from, int length) implements ColumnFunction {

  public static final int TO_END = -1;

  public Substr {
    if (from < 1) {
      throw new IllegalArgumentException("substr: from must be at least 1, was " + from);
    }
    if (length < TO_END) {
      throw new IllegalArgumentException("substr: length must not be negative, was " + length);
    }
  }

  @Override
  public String name() {
    return "substr";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return StringFunctions.appliesTo(type);
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    int codePoints = canonical.codePointCount(0, canonical.length());
    if (from > codePoints) {
      return "";
    }
    int start = canonical.offsetByCodePoints(0, from - 1);
    if (length == TO_END || from - 1 + (long) length >= codePoints) {
      return canonical.substring(start);
    }
    return canonical.substring(start, canonical.offsetByCodePoints(start, length));
  }

  @Override
  public String spec() {
    return length == TO_END ? "substr(" + from + ")" : "substr(" + from + "," + length + ")";
  }
}
