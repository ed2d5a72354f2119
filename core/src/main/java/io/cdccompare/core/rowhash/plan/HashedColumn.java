package io.cdccompare.core.rowhash.plan;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunction;
import java.util.List;

/**
 * One column that takes part in the row hash: where to read it on each side, its type and the
 * functions applied to its canonical text, in order. Every function applies to the type.
 */
public record HashedColumn(
    String sourceName, String targetName, LogicalType type, List<ColumnFunction> functions) {

  public HashedColumn {
    ColumnMapping.requireName(sourceName, "source column");
    ColumnMapping.requireName(targetName, "target column");
    if (type == null) {
      throw new IllegalArgumentException("column " + sourceName + " needs a type");
    }
    functions = List.copyOf(functions);
    for (ColumnFunction function : functions) {
      if (!function.appliesTo(type)) {
        throw new IllegalArgumentException(
            "function '" + function.name() + "' does not apply to type " + type);
      }
    }
  }

  /** A column compared as it is, under the same name on both sides. */
  public static HashedColumn of(String name, LogicalType type) {
    return new HashedColumn(name, name, type, List.of());
  }
}
