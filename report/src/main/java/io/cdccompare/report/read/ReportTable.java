package io.cdccompare.report.read;

import io.cdccompare.core.report.RowTotals;
import io.cdccompare.core.report.SourceRows;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a report as aligned plain text for a terminal: per task a title line and a table of one
 * row per target's totals ({@code (all tables)}) and per table, text left-aligned and numbers
 * right-aligned, no colours. {@code SOURCE ROWS} are the rows the run read on the source, {@code
 * COVERED} the share of them its coverage cycle compared ({@code -} while unknown). Difference
 * keys, when present, are listed one per line under their row, then the row run's recheck attempts,
 * one line each with its counts and then its keys. Names and keys are written with control
 * characters escaped ({@code \n}, {@code \u001b}), so that nothing read from a topic can move the
 * cursor or change the terminal.
 */
public final class ReportTable {
  static final String ALL_TABLES = "(all tables)";
  static final String NONE = "-";

  private static final String[] HEADER = {
    "TARGET",
    "TABLE",
    "RUN",
    "STATUS",
    "NOTED",
    "VERIFIED",
    "SOURCE ROWS",
    "COVERED",
    "MATCHED",
    "FAILED",
    "MISSED",
    "EXTRA",
    "IN FLIGHT",
    "UNVERIFIABLE",
    "DRIFT"
  };

  /** Columns from this index on are numbers. */
  private static final int FIRST_NUMBER = 4;

  private ReportTable() {}

  public static void write(List<TaskReport> tasks, PrintWriter out) {
    if (tasks.isEmpty()) {
      out.println("the report holds no entry");
    }
    boolean first = true;
    for (TaskReport task : tasks) {
      if (!first) {
        out.println();
      }
      first = false;
      out.println("task " + safe(task.task()));
      writeTable(task, out);
    }
    out.flush();
  }

  /** A line of the table: cells, or keys written as they are under the row before. */
  private record Line(String[] cells, List<String> text) {}

  private static void writeTable(TaskReport task, PrintWriter out) {
    List<Line> lines = new ArrayList<>();
    lines.add(new Line(HEADER, List.of()));
    for (TargetReport target : task.targets()) {
      for (ReportRow row : target.rows()) {
        lines.add(new Line(cells(target.target(), row), List.of()));
        row.keys().ifPresent(keys -> lines.add(new Line(null, keyLines(keys))));
        if (!row.rechecks().isEmpty()) {
          lines.add(new Line(null, recheckLines(row.rechecks())));
        }
      }
    }
    int[] widths = new int[HEADER.length];
    for (Line line : lines) {
      if (line.cells() != null) {
        for (int c = 0; c < widths.length; c++) {
          widths[c] = Math.max(widths[c], line.cells()[c].length());
        }
      }
    }
    for (Line line : lines) {
      if (line.cells() == null) {
        line.text().forEach(out::println);
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (int c = 0; c < widths.length; c++) {
        if (c > 0) {
          text.append("  ");
        }
        String cell = line.cells()[c];
        String pad = " ".repeat(widths[c] - cell.length());
        text.append(c < FIRST_NUMBER ? cell + pad : pad + cell);
      }
      out.println(text.toString().stripTrailing());
    }
  }

  private static String[] cells(String target, ReportRow row) {
    String table = row.table().map(ReportTable::safe).orElse(ALL_TABLES);
    String run = row.runId().map(ReportTable::safe).orElse(NONE);
    if (row.status() == ShownStatus.NO_RESULTS) {
      String[] cells = new String[HEADER.length];
      java.util.Arrays.fill(cells, NONE);
      cells[0] = safe(target);
      cells[1] = table;
      cells[2] = run;
      cells[3] = row.status().name();
      return cells;
    }
    RowTotals rows = row.totals().rows();
    return new String[] {
      safe(target),
      table,
      run,
      row.status().name(),
      Long.toString(row.noted()),
      Long.toString(row.verified()),
      Long.toString(row.totals().source().read()),
      row.coverage().isPresent() ? percent(row.totals().source()) : NONE,
      Long.toString(rows.matched()),
      Long.toString(rows.failed()),
      Long.toString(rows.missed()),
      Long.toString(rows.extra()),
      Long.toString(rows.inFlight()),
      Long.toString(row.totals().unverifiableChunks()),
      Long.toString(row.totals().schemaDriftChunks())
    };
  }

  /**
   * The coverage as a percentage, rounded down so that only a whole coverage shows {@code 100%}:
   * whole percents from 1 % on ({@code 40%}), one decimal below ({@code 0.5%}, {@code 0.0%} for a
   * share under 0.1 %), {@code 0%} when nothing is covered.
   */
  static String percent(SourceRows source) {
    if (source.read() == 0 || source.covered() >= source.read()) {
      return "100%";
    }
    if (source.covered() == 0) {
      return "0%";
    }
    long tenths =
        BigInteger.valueOf(source.covered())
            .multiply(BigInteger.valueOf(1000))
            .divide(BigInteger.valueOf(source.read()))
            .longValueExact();
    return tenths >= 10 ? tenths / 10 + "%" : "0." + tenths + "%";
  }

  private static List<String> keyLines(DifferenceKeys keys) {
    List<String> lines = new ArrayList<>();
    addKeys(lines, keys);
    return lines;
  }

  private static void addKeys(List<String> lines, DifferenceKeys keys) {
    addKeys(lines, "failed", keys.failed());
    addKeys(lines, "missed", keys.missed());
    addKeys(lines, "extra", keys.extra());
  }

  /**
   * Per attempt one line, {@code recheck 1 (<run>.recheck1): cleared 12, failed 1, missed 0, extra
   * 0, in flight 1} ({@code repair 1 (<run>.repair1): …} for a repair's check, whose cleared keys
   * are repaired), its in-flight rows marked {@code (unsettled)} on the last attempt, its
   * unverifiable chunks added when there are any; then its keys.
   */
  private static List<String> recheckLines(List<RecheckAttempt> attempts) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < attempts.size(); i++) {
      RecheckAttempt a = attempts.get(i);
      boolean last = i == attempts.size() - 1;
      RowTotals rows = a.rows();
      lines.add(
          "    "
              + a.kind()
              + " "
              + a.attempt()
              + " ("
              + safe(a.runId())
              + "): cleared "
              + rows.matched()
              + ", failed "
              + rows.failed()
              + ", missed "
              + rows.missed()
              + ", extra "
              + rows.extra()
              + ", in flight "
              + rows.inFlight()
              + (last && rows.inFlight() > 0 ? " (unsettled)" : "")
              + (a.unverifiableChunks() > 0
                  ? ", unverifiable chunks " + a.unverifiableChunks()
                  : ""));
      addKeys(lines, a.keys());
      addKeys(lines, "in flight", a.inFlight());
    }
    return lines;
  }

  private static void addKeys(List<String> lines, String kind, DifferenceKeys.Keys keys) {
    if (keys.total() == 0) {
      return;
    }
    lines.add(
        "    "
            + kind
            + " keys ("
            + keys.total()
            + (keys.omitted() > 0 ? ", first " + keys.shown().size() : "")
            + "):");
    keys.shown().forEach(key -> lines.add("      " + safe(key)));
    if (keys.omitted() > 0) {
      lines.add("      (" + keys.omitted() + " more)");
    }
  }

  /** The text with control characters written as escapes. */
  static String safe(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      boolean control = ch < 0x20 || (ch >= 0x7f && ch <= 0x9f);
      if (control && out == null) {
        out = new StringBuilder(text.substring(0, i));
      }
      if (out != null) {
        if (!control) {
          out.append(ch);
        } else if (ch == '\n') {
          out.append("\\n");
        } else if (ch == '\t') {
          out.append("\\t");
        } else if (ch == '\r') {
          out.append("\\r");
        } else {
          out.append(String.format("\\u%04x", (int) ch));
        }
      }
    }
    return out == null ? text : out.toString();
  }
}
