package io.cdccompare.core.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Record keys of the report: {@code task/target/table} for a table's entry, {@code task/target} for
 * the task's entry, and the same joining for any path of names. A {@code /} or {@code \} inside a
 * name is escaped with {@code \}, so names that contain a slash never collide ({@code a/b} + {@code
 * c} is {@code a\/b/c}, {@code a} + {@code b/c} is {@code a/b\/c}); names without those characters
 * are written as they are. Pure and thread-safe.
 */
public final class ReportKey {
  private static final char SEPARATOR = '/';
  private static final char ESCAPE = '\\';

  private ReportKey() {}

  /** The key of the entry of {@code table} of {@code task} on {@code target}. */
  public static String ofTable(String task, String target, String table) {
    return path(task, target, table);
  }

  /** The key of the entry that totals every table of {@code task} on {@code target}. */
  public static String ofTask(String task, String target) {
    return path(task, target);
  }

  /** The names escaped and joined with {@code /}. */
  public static String path(String... names) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        out.append(SEPARATOR);
      }
      String name = names[i];
      if (name == null) {
        throw new IllegalArgumentException("name " + (i + 1) + " of a report key is null");
      }
      for (int c = 0; c < name.length(); c++) {
        char ch = name.charAt(c);
        if (ch == SEPARATOR || ch == ESCAPE) {
          out.append(ESCAPE);
        }
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** The path of {@code names} followed by {@code /}: every longer path under them starts so. */
  public static String prefix(String... names) {
    return path(names) + SEPARATOR;
  }

  /**
   * The names of a path, unescaped.
   *
   * @throws IllegalArgumentException if the path ends inside an escape
   */
  public static List<String> names(String path) {
    List<String> names = new ArrayList<>();
    StringBuilder name = new StringBuilder();
    for (int c = 0; c < path.length(); c++) {
      char ch = path.charAt(c);
      if (ch == ESCAPE) {
        if (++c == path.length()) {
          throw new IllegalArgumentException("report key '" + path + "' ends inside an escape");
        }
        name.append(path.charAt(c));
      } else if (ch == SEPARATOR) {
        names.add(name.toString());
        name.setLength(0);
      } else {
        name.append(ch);
      }
    }
    names.add(name.toString());
    return names;
  }
}
