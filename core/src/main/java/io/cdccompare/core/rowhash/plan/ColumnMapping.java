package io.cdccompare.core.rowhash.plan;

/**
 * A source column compared with a target column of another name. Columns without a mapping are
 * compared with the target column of the same name.
 */
public record ColumnMapping(String sourceColumn, String targetColumn) {

  public ColumnMapping {
    requireName(sourceColumn, "source column");
    requireName(targetColumn, "target column");
  }

  static void requireName(String name, String what) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(what + " name must not be blank");
    }
  }
}
