package io.cdccompare.core.rowhash.plan;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a compare task says about the row hash of one table: column mappings, excluded columns,
 * declared column types and the column functions, per column and per type.
 *
 * <p>A column's functions are its own list when it has one (even an empty one, which switches the
 * type's functions off), else the list of its type. A declared type replaces the catalog's (e.g. a
 * MariaDB {@code CHAR(36)} holding UUIDs declared {@code UUID}).
 *
 * <p>Everything that can be checked without the database is checked when the rules are built, that
 * is when the configuration is loaded: functions that do not fit their type (declared columns and
 * type lists), an excluded column that is also mapped or given functions. {@link #resolve} checks
 * the rest against the catalog. Errors are {@link HashRulesException}s naming table and column.
 */
public record TableHashRules(
    String table,
    List<ColumnMapping> mappings,
    Set<String> excludedColumns,
    Map<String, List<ColumnFunction>> columnFunctions,
    Map<LogicalType, List<ColumnFunction>> typeFunctions,
    Map<String, LogicalType> declaredTypes) {

  public TableHashRules {
    ColumnMapping.requireName(table, "table");
    mappings = List.copyOf(mappings);
    excludedColumns = Set.copyOf(excludedColumns);
    columnFunctions = copy(columnFunctions);
    typeFunctions = copy(typeFunctions);
    declaredTypes = Map.copyOf(declaredTypes);
    Set<String> mapped = new TreeSet<>();
    for (ColumnMapping mapping : mappings) {
      if (!mapped.add(mapping.sourceColumn())) {
        throw new HashRulesException(columnPath(table, mapping.sourceColumn()), "mapped twice");
      }
    }
    for (String excluded : excludedColumns) {
      if (mapped.contains(excluded) || columnFunctions.containsKey(excluded)) {
        throw new HashRulesException(
            columnPath(table, excluded), "an excluded column cannot be mapped or given functions");
      }
    }
    for (Map.Entry<LogicalType, List<ColumnFunction>> entry : typeFunctions.entrySet()) {
      requireFit(typePath(table, entry.getKey()), entry.getKey(), entry.getValue());
    }
    for (Map.Entry<String, LogicalType> entry : declaredTypes.entrySet()) {
      List<ColumnFunction> own = columnFunctions.get(entry.getKey());
      if (own != null) {
        requireFit(columnPath(table, entry.getKey()), entry.getValue(), own);
      }
    }
  }

  /** Rules that compare every column as it is, under the same names. */
  public static TableHashRules plain(String table) {
    return new TableHashRules(table, List.of(), Set.of(), Map.of(), Map.of(), Map.of());
  }

  /**
   * The hash plan of the table whose catalog columns are {@code sourceColumns} (in table order).
   *
   * @throws HashRulesException if a rule names a column the table does not have, or a function does
   *     not fit the column's type
   */
  public HashPlan resolve(List<SourceColumn> sourceColumns) {
    Map<String, LogicalType> catalog = new LinkedHashMap<>();
    for (SourceColumn column : sourceColumns) {
      catalog.put(column.name(), column.type());
    }
    Map<String, String> targetNames = new HashMap<>();
    mappings.forEach(m -> targetNames.put(m.sourceColumn(), m.targetColumn()));
    Set<String> named = new TreeSet<>(targetNames.keySet());
    named.addAll(excludedColumns);
    named.addAll(columnFunctions.keySet());
    named.addAll(declaredTypes.keySet());
    for (String column : named) {
      if (!catalog.containsKey(column)) {
        throw new HashRulesException(
            columnPath(table, column), "no such column in the source table");
      }
    }
    List<HashedColumn> columns = new ArrayList<>();
    for (Map.Entry<String, LogicalType> entry : catalog.entrySet()) {
      String name = entry.getKey();
      if (excludedColumns.contains(name)) {
        continue;
      }
      LogicalType type = declaredTypes.getOrDefault(name, entry.getValue());
      List<ColumnFunction> functions =
          columnFunctions.getOrDefault(name, typeFunctions.getOrDefault(type, List.of()));
      requireFit(columnPath(table, name), type, functions);
      columns.add(new HashedColumn(name, targetNames.getOrDefault(name, name), type, functions));
    }
    return new HashPlan(table, columns);
  }

  static String columnPath(String table, String column) {
    return "tables[" + table + "].columns[" + column + "]";
  }

  static String typePath(String table, LogicalType type) {
    return "tables[" + table + "].types[" + type + "]";
  }

  static void requireFit(String path, LogicalType type, List<ColumnFunction> functions) {
    for (ColumnFunction function : functions) {
      if (!function.appliesTo(type)) {
        throw new HashRulesException(
            path, "function '" + function.spec() + "' does not apply to type " + type);
      }
    }
  }

  private static <K> Map<K, List<ColumnFunction>> copy(Map<K, List<ColumnFunction>> source) {
    Map<K, List<ColumnFunction>> copy = new HashMap<>();
    source.forEach((key, functions) -> copy.put(key, List.copyOf(functions)));
    return Map.copyOf(copy);
  }
}
