package io.cdccompare.operations.page;

import java.util.List;

/**
 * The page's run history: per task, its latest runs as a bar chart (inline SVG: matched, different
 * and in-flight rows per run, on a log scale, oldest left) and as a table, newest first.
 */
final class HistorySection {
  /** Runs of a task in its history chart, the latest ones. */
  static final int HISTORY_RUNS = 40;

  private HistorySection() {}

  /** Writes the section for {@code history} to {@code out}. */
  static void write(StringBuilder out, RunHistory history) {
    out.append("<section id=\"history\"><h2>Run history</h2>\n");
    List<String> tasks = history.tasks();
    if (tasks.isEmpty()) {
      out.append("<p>The results topic holds no run yet.</p>");
    }
    for (String task : tasks) {
      List<RunHistory.Run> runs = history.runs(task);
      int omitted = Math.max(0, runs.size() - HISTORY_RUNS);
      runs = runs.subList(omitted, runs.size());
      out.append("<h3>task ").append(ReportPage.esc(task)).append("</h3>");
      chart(out, runs);
      out.append("<table class=\"runs\"><thead><tr><th>run</th><th>kind</th><th>first verdict</th>")
          .append("<th>matched</th><th>different</th><th>in flight</th></tr></thead><tbody>");
      for (int i = runs.size() - 1; i >= 0; i--) {
        RunHistory.Run run = runs.get(i);
        out.append("<tr><td>")
            .append(ReportPage.esc(run.runId()))
            .append("</td><td>")
            .append(ReportPage.esc(run.kind()))
            .append("</td><td>")
            .append(ReportPage.TIME.format(run.first()))
            .append("</td><td class=\"n\">")
            .append(run.matched())
            .append("</td><td class=\"n")
            .append(run.different() > 0 ? " bad" : "")
            .append("\">")
            .append(run.different())
            .append("</td><td class=\"n\">")
            .append(run.inFlight())
            .append("</td></tr>");
      }
      out.append("</tbody></table>");
      if (omitted > 0) {
        out.append("<p class=\"muted\">").append(omitted).append(" older runs not shown</p>");
      }
    }
    out.append("</section>\n");
  }

  /** Bars per run, oldest left: matched, different and in-flight rows, on a log scale. */
  private static void chart(StringBuilder out, List<RunHistory.Run> runs) {
    int height = 140;
    int group = 24;
    int width = Math.max(200, runs.size() * group + 40);
    long max = 1;
    for (RunHistory.Run run : runs) {
      max = Math.max(max, Math.max(run.matched(), Math.max(run.different(), run.inFlight())));
    }
    double scale = Math.log10(max + 1.0);
    out.append("<svg class=\"chart\" role=\"img\" aria-label=\"runs over time\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height + 20)
        .append("\" viewBox=\"0 0 ")
        .append(width)
        .append(' ')
        .append(height + 20)
        .append("\">");
    out.append("<line x1=\"30\" y1=\"")
        .append(height)
        .append("\" x2=\"")
        .append(width)
        .append("\" y2=\"")
        .append(height)
        .append("\" class=\"axis\"/>");
    out.append("<text x=\"0\" y=\"12\" class=\"lbl\">")
        .append(max)
        .append("</text><text x=\"0\" y=\"")
        .append(height)
        .append("\" class=\"lbl\">0</text>");
    for (int i = 0; i < runs.size(); i++) {
      RunHistory.Run run = runs.get(i);
      int x = 34 + i * group;
      long[] values = {run.matched(), run.different(), run.inFlight()};
      String[] classes = {"b-m", "b-d", "b-f"};
      for (int k = 0; k < 3; k++) {
        int h = (int) Math.round(Math.log10(values[k] + 1.0) / scale * (height - 14));
        out.append("<rect class=\"")
            .append(classes[k])
            .append("\" x=\"")
            .append(x + k * 6)
            .append("\" y=\"")
            .append(height - h)
            .append("\" width=\"6\" height=\"")
            .append(h)
            .append("\"><title>")
            .append(ReportPage.esc(run.runId()))
            .append(" (")
            .append(ReportPage.TIME.format(run.first()))
            .append("): matched ")
            .append(run.matched())
            .append(", different ")
            .append(run.different())
            .append(", in flight ")
            .append(run.inFlight())
            .append("</title></rect>");
      }
      out.append("<text x=\"")
          .append(x)
          .append("\" y=\"")
          .append(height + 14)
          .append("\" class=\"lbl\">")
          .append(i + 1)
          .append("</text>");
    }
    out.append("</svg><p class=\"legend\"><span class=\"k b-m\"></span> matched ")
        .append("<span class=\"k b-d\"></span> different <span class=\"k b-f\"></span> in flight")
        .append(" · rows per run, log scale, oldest left</p>");
  }
}
