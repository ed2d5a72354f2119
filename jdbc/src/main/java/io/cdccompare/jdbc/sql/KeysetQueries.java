package io.cdccompare.jdbc.sql;

import io.cdccompare.core.chunk.ComparedRange;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The key-ordered reads of one table on one side, built apart from running them (docs/design.md,
 * "Chunks, notes and the in-flight window"): the next chunk after a key (keyset pagination with a
 * row-value comparison, never {@code OFFSET}), a probe for whether any row follows a key, and the
 * rows of a compared key range. Every bound is a placeholder from the key columns' {@link
 * ColumnAccess} (bind them with {@code KeyBinder}); the ordering is the key columns', so PostgreSQL
 * and MariaDB walk the primary-key index.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeysetQueries {

  private final Dialect dialect;
  private final String table;
  private final String keyList;
  private final String placeholderList;
  private final List<String> keyColumns;
  private final List<String> placeholders;

  /**
   * @param keyColumns this side's key column names, in key order
   * @param placeholders the key columns' placeholders ({@code KeyBinder.placeholders()})
   */
  public KeysetQueries(
      Dialect dialect, TableRef table, List<String> keyColumns, List<String> placeholders) {
    if (keyColumns.isEmpty() || keyColumns.size() != placeholders.size()) {
      throw new IllegalArgumentException("one placeholder per key column, at least one column");
    }
    this.dialect = dialect;
    this.keyColumns = List.copyOf(keyColumns);
    this.placeholders = List.copyOf(placeholders);
    this.table = dialect.qualified(table);
    this.keyList = keyColumns.stream().map(dialect::quote).collect(Collectors.joining(", "));
    this.placeholderList = String.join(", ", placeholders);
  }

  /**
   * The first {@code ?}-bound number of rows in key order: {@code LIMIT ?} is the last parameter.
   * With {@code afterKey}, the key's values are bound first and only rows after it are read.
   */
  public String chunk(List<String> selectList, boolean afterKey) {
    return "SELECT "
        + String.join(", ", selectList)
        + " FROM "
        + table
        + (afterKey ? " WHERE " + compare(">") : "")
        + " ORDER BY "
        + keyList
        + " LIMIT ?";
  }

  /** One row if any row follows the bound key ({@code afterKey}) or the table has a row at all. */
  public String anyRow(boolean afterKey) {
    return "SELECT 1 FROM " + table + (afterKey ? " WHERE " + compare(">") : "") + " LIMIT 1";
  }

  /**
   * The rows whose key lies in {@code range}, in key order: the lower bound's key values are bound
   * first (when the range has one), then the upper bound's (when it has one). Only the shape of the
   * range matters here (which bounds exist, whether the lower one is inclusive); a range open on
   * both sides reads the whole table in key order.
   */
  public String range(List<String> selectList, ComparedRange range) {
    List<String> bounds = new ArrayList<>(2);
    if (range.boundedBelow()) {
      bounds.add(compare(range.lowerInclusive() ? ">=" : ">"));
    }
    if (range.boundedAbove()) {
      bounds.add(compare("<="));
    }
    return "SELECT "
        + String.join(", ", selectList)
        + " FROM "
        + table
        + (bounds.isEmpty() ? "" : " WHERE " + String.join(" AND ", bounds))
        + " ORDER BY "
        + keyList;
  }

  /** The dialect the statements are written for. */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * The key compared with one bound: a row value where the dialect ranges by it, else the same
   * lexicographic order as an OR of key prefixes, each prefix's columns equal and its last column
   * compared ({@code a > ? OR a = ? AND b > ?}; the last term of {@code >=} and {@code <=} keeps
   * the equality). The placeholders' columns are {@link Dialect#boundColumns}.
   */
  private String compare(String operator) {
    if (dialect.rangesByRowValue() || keyColumns.size() == 1) {
      return "(" + keyList + ") " + operator + " (" + placeholderList + ")";
    }
    String strict = operator.substring(0, 1);
    List<String> terms = new ArrayList<>();
    for (int prefix = 1; prefix <= keyColumns.size(); prefix++) {
      StringBuilder term = new StringBuilder();
      for (int column = 0; column < prefix - 1; column++) {
        term.append(dialect.quote(keyColumns.get(column)))
            .append(" = ")
            .append(placeholders.get(column))
            .append(" AND ");
      }
      term.append(dialect.quote(keyColumns.get(prefix - 1)))
          .append(' ')
          .append(prefix == keyColumns.size() ? operator : strict)
          .append(' ')
          .append(placeholders.get(prefix - 1));
      terms.add(prefix == 1 ? term.toString() : "(" + term + ")");
    }
    return "(" + String.join(" OR ", terms) + ")";
  }
}
