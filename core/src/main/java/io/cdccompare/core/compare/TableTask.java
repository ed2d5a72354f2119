package io.cdccompare.core.compare;

import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.core.table.TableName;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a compare task does with one table, as configured: checked when the configuration is loaded,
 * before any database is asked (the catalog checks come when the table is resolved).
 *
 * @param keyColumns the key columns in key order; empty means the table's primary key
 * @param comparedColumns the compared columns; empty means every column not excluded by the rules
 * @param rules column mappings, exclusions, declared types and functions
 * @param sampling chunk size and deep
 * @param targetTable the table's name on the targets, {@code null} when it is the same
 */
public record TableTask(
    TableName table,
    List<String> keyColumns,
    List<String> comparedColumns,
    TableHashRules rules,
    ChunkSampling sampling,
    TableName targetTable) {

  public TableTask {
    if (table == null || rules == null || sampling == null) {
      throw new IllegalArgumentException("a table task needs a table, rules and sampling");
    }
    keyColumns = List.copyOf(keyColumns);
    comparedColumns = List.copyOf(comparedColumns);
    requireDistinct(table, "key.columns", keyColumns);
    requireDistinct(table, "columns", comparedColumns);
    if (!comparedColumns.isEmpty() && !rules.excludedColumns().isEmpty()) {
      throw new IllegalArgumentException(
          "table."
              + table
              + ".columns and table."
              + table
              + ".exclude: give one of them, not both");
    }
  }

  private static void requireDistinct(TableName table, String setting, List<String> columns) {
    Set<String> seen = new HashSet<>();
    for (String column : columns) {
      if (column.isBlank()) {
        throw new IllegalArgumentException(
            "table." + table + "." + setting + " holds an empty column name");
      }
      if (!seen.add(column)) {
        throw new IllegalArgumentException(
            "table." + table + "." + setting + " names column '" + column + "' twice");
      }
    }
  }
}
