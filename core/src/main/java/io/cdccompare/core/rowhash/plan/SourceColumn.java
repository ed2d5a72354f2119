package io.cdccompare.core.rowhash.plan;

import io.cdccompare.core.rowhash.LogicalType;

/** A column of the source table as the catalog describes it, in the table's column order. */
public record SourceColumn(String name, LogicalType type) {

  public SourceColumn {
    ColumnMapping.requireName(name, "column");
    if (type == null) {
      throw new IllegalArgumentException("column " + name + " needs a type");
    }
  }
}
