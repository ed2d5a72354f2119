package io.cdccompare.core.rowhash.plan;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.function.ColumnFunction;
import io.cdccompare.core.rowhash.function.ColumnFunctionParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds {@link TableHashRules} from configuration text (function specs such as {@code round(2)},
 * type names such as {@code decimal}), turning every problem into a {@link HashRulesException} that
 * names the table and the column or type. The configuration loader calls it while it loads, so an
 * unknown function or one that does not fit a declared type stops the load.
 */
public final class HashRulesParser {

  private HashRulesParser() {}

  /**
   * @param columnTargets source column → target column, for columns named differently
   * @param excluded columns left out of the hash
   * @param columnFunctions column → function specs, applied in order
   * @param typeFunctions type name (a {@link LogicalType}, case-insensitive) → function specs
   * @param declaredTypes column → type name, replacing the catalog's type
   */
  public static TableHashRules parse(
      String table,
      Map<String, String> columnTargets,
      List<String> excluded,
      Map<String, List<String>> columnFunctions,
      Map<String, List<String>> typeFunctions,
      Map<String, String> declaredTypes) {
    List<ColumnMapping> mappings = new ArrayList<>();
    columnTargets.forEach((source, target) -> mappings.add(new ColumnMapping(source, target)));
    Map<String, List<ColumnFunction>> byColumn = new LinkedHashMap<>();
    columnFunctions.forEach(
        (column, specs) ->
            byColumn.put(column, functions(TableHashRules.columnPath(table, column), specs)));
    Map<LogicalType, List<ColumnFunction>> byType = new LinkedHashMap<>();
    typeFunctions.forEach(
        (typeName, specs) -> {
          String path = "tables[" + table + "].types[" + typeName + "]";
          byType.put(type(path, typeName), functions(path, specs));
        });
    Map<String, LogicalType> types = new LinkedHashMap<>();
    declaredTypes.forEach(
        (column, typeName) ->
            types.put(column, type(TableHashRules.columnPath(table, column), typeName)));
    return new TableHashRules(
        table, mappings, java.util.Set.copyOf(excluded), byColumn, byType, types);
  }

  /** Parses function specs, naming {@code path} in any error. */
  public static List<ColumnFunction> functions(String path, List<String> specs) {
    List<ColumnFunction> functions = new ArrayList<>();
    for (String spec : specs) {
      try {
        functions.add(ColumnFunctionParser.parse(spec));
      } catch (IllegalArgumentException e) {
        throw new HashRulesException(path, e.getMessage());
      }
    }
    return functions;
  }

  /** A type by its name, case-insensitive ({@code decimal}, {@code timestamp_tz}). */
  public static LogicalType type(String path, String name) {
    try {
      return LogicalType.valueOf(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new HashRulesException(
          path, "unknown type '" + name + "' (known: " + List.of(LogicalType.values()) + ")");
    }
  }
}
