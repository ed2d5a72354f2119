package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.TypeFamily;

/** Where the string functions (case, trim, substr, replace) apply. */
final class StringFunctions {

  private StringFunctions() {}

  /** Character types, and UUID and JSON, whose canonical texts are strings too. */
  static boolean appliesTo(LogicalType type) {
    TypeFamily family = type.family();
    return family == TypeFamily.TEXT || family == TypeFamily.UUID || family == TypeFamily.JSON;
  }
}
