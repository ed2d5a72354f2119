package io.cdccompare.core.rowhash.plan;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns of a table that make its row hash, in hash order (the source table's column order,
 * excluded columns left out). Both sides hash from the same plan: the source reads {@link
 * HashedColumn#sourceName()}, a target {@link HashedColumn#targetName()}.
 */
public record HashPlan(String table, List<HashedColumn> columns) {

  public HashPlan {
    ColumnMapping.requireName(table, "table");
    columns = List.copyOf(columns);
    if (columns.isEmpty()) {
      throw new HashRulesException("tables[" + table + "]", "no column left to compare");
    }
    Set<String> sources = new HashSet<>();
    Set<String> targets = new HashSet<>();
    for (HashedColumn column : columns) {
      if (!sources.add(column.sourceName())) {
        throw new HashRulesException(
            "tables[" + table + "].columns[" + column.sourceName() + "]", "listed twice");
      }
      if (!targets.add(column.targetName())) {
        throw new HashRulesException(
            "tables[" + table + "].columns[" + column.sourceName() + "]",
            "target column '" + column.targetName() + "' is already compared with another column");
      }
    }
  }
}
