package io.cdccompare.operations.explain;

import io.cdccompare.operations.status.TextTable;
import java.io.PrintWriter;

/** Prints a {@link RowExplanation} as aligned text, each line after {@code indent}. */
public final class ExplainText {
  private ExplainText() {}

  public static void write(RowExplanation e, String indent, PrintWriter out) {
    out.println(
        indent
            + "explain "
            + e.table()
            + " key "
            + e.key()
            + " on target "
            + e.target()
            + " (task "
            + e.task()
            + ", run "
            + e.runId()
            + ": "
            + e.runOutcome()
            + ")");
    out.println(indent + "now: " + e.nowText());
    out.println(indent + "since the run: " + e.sinceRunText());
    TextTable table = new TextTable(indent + "  ", "COLUMN", "SOURCE", "TARGET", "");
    for (ColumnExplanation c : e.columns()) {
      String name =
          c.sourceColumn().equals(c.targetColumn())
              ? c.sourceColumn()
              : c.sourceColumn() + " -> " + c.targetColumn();
      String mark = c.differs() ? "DIFFERS" : "";
      if (c.masked()) {
        mark = mark.isEmpty() ? "masked" : mark + ", masked";
      }
      table.row(
          name,
          c.source() == null ? "(no row)" : c.source(),
          c.target() == null ? "(no row)" : c.target(),
          mark);
    }
    table.lines().forEach(out::println);
    out.println(
        indent
            + "  row hash: source "
            + e.sourceHash().orElse("(no row)")
            + ", target "
            + e.targetHash().orElse("(no row)"));
  }
}
