package io.cdccompare.operations.status;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of cells printed in aligned columns, two spaces apart: text left-aligned, numbers (columns
 * declared numeric) right-aligned. No trailing blanks. Not thread-safe.
 */
public final class TextTable {
  private final String indent;
  private final boolean[] numeric;
  private final List<String[]> rows = new ArrayList<>();

  /**
   * @param header the column names; a name ending in {@code >} is a numeric column (the {@code >}
   *     is not printed)
   */
  public TextTable(String indent, String... header) {
    this.indent = indent;
    this.numeric = new boolean[header.length];
    String[] names = new String[header.length];
    for (int i = 0; i < header.length; i++) {
      numeric[i] = header[i].endsWith(">");
      names[i] = numeric[i] ? header[i].substring(0, header[i].length() - 1) : header[i];
    }
    rows.add(names);
  }

  public TextTable row(String... cells) {
    if (cells.length != numeric.length) {
      throw new IllegalArgumentException(
          "a row has " + numeric.length + " cells, was " + cells.length);
    }
    rows.add(cells.clone());
    return this;
  }

  public List<String> lines() {
    int[] width = new int[numeric.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[i] - row[i].length());
        line.append(numeric[i] ? pad + row[i] : row[i] + pad);
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }
}
