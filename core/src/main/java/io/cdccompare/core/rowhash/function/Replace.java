package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;

/**
 * {@code replace('a','b')}: every occurrence of {@code search} in the canonical text, left to right
 * and without overlaps, replaced by {@code replacement} (which may be empty). Literal text, not a
 * pattern.
 */
public record Replace(String search, String replacement) implements ColumnFunction {

  public Replace {
    if (search == null || search.isEmpty()) {
      throw new IllegalArgumentException("replace: the text to search must not be empty");
    }
    if (replacement == null) {
      throw new IllegalArgumentException("replace: the replacement must not be null");
    }
  }

  @Override
  public String name() {
    return "replace";
  }

  @Override
  public boolean appliesTo(LogicalType type) {
    return StringFunctions.appliesTo(type);
  }

  @Override
  public String apply(LogicalType type, String canonical) {
    return canonical.replace(search, replacement);
  }

  @Override
  public String spec() {
    return "replace(" + quote(search) + "," + quote(replacement) + ")";
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
