package io.cdccompare.core.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A schema-qualified table name as the database knows it (case and every character kept). Written
 * in configuration as {@code schema.table}; a part holding anything but letters, digits and {@code
 * _} is written in double quotes, with {@code ""} for a quote inside ({@code "My Schema"."a.b"}).
 */
public record TableName(String schema, String table) {

  public TableName {
    requireName(schema, "schema");
    requireName(table, "table");
  }

  private static void requireName(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(what + " name is empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " name contains a NUL character");
    }
  }

  /** Parses one {@code schema.table}; a bare {@code table} is refused (the schema is required). */
  public static TableName parse(String text) {
    List<TableName> names = parseList(text);
    if (names.size() != 1) {
      throw new IllegalArgumentException("expected one table name, got '" + text + "'");
    }
    return names.get(0);
  }

  /** Parses a comma separated list of {@code schema.table} names. */
  public static List<TableName> parseList(String text) {
    List<TableName> result = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      i = skipBlanks(text, i);
      StringBuilder part = new StringBuilder();
      if (i < text.length() && text.charAt(i) == '"') {
        i = readQuoted(text, i, part);
        i = skipBlanks(text, i);
      } else {
        while (i < text.length() && ".,\"".indexOf(text.charAt(i)) < 0) {
          part.append(text.charAt(i++));
        }
        String trimmed = part.toString().strip();
        part.setLength(0);
        part.append(trimmed);
      }
      parts.add(part.toString());
      if (i < text.length() && text.charAt(i) == '"') {
        throw new IllegalArgumentException(
            "unexpected quote at position " + i + " in '" + text + "'");
      }
      if (i >= text.length() || text.charAt(i) == ',') {
        addTable(parts, text, result);
        parts.clear();
      }
      i++;
    }
    return result;
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * Reads a double-quoted part starting at {@code i}; returns the index after the closing quote.
   */
  private static int readQuoted(String text, int i, StringBuilder part) {
    int at = i + 1;
    while (true) {
      if (at >= text.length()) {
        throw new IllegalArgumentException("unterminated quoted name in '" + text + "'");
      }
      char c = text.charAt(at);
      if (c == '"') {
        if (at + 1 < text.length() && text.charAt(at + 1) == '"') {
          part.append('"');
          at += 2;
          continue;
        }
        return at + 1;
      }
      part.append(c);
      at++;
    }
  }

  private static void addTable(List<String> parts, String text, List<TableName> result) {
    if (parts.size() == 1 && parts.get(0).isEmpty()) {
      return;
    }
    if (parts.size() != 2 || parts.get(0).isEmpty() || parts.get(1).isEmpty()) {
      throw new IllegalArgumentException(
          "table names are written schema.table (quote parts with other characters:"
              + " \"My Schema\".\"a.b\"), got '"
              + String.join(".", parts)
              + "' in '"
              + text
              + "'");
    }
    result.add(new TableName(parts.get(0), parts.get(1)));
  }

  /** The name as written in configuration, quoting parts that need it. */
  @Override
  public String toString() {
    return configPart(schema) + "." + configPart(table);
  }

  private static String configPart(String part) {
    return part.matches("[A-Za-z0-9_]+") ? part : "\"" + part.replace("\"", "\"\"") + "\"";
  }
}
