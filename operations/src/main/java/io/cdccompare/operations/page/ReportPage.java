package io.cdccompare.operations.page;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdccompare.core.report.RowTotals;
import io.cdccompare.operations.explain.ColumnExplanation;
import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.operations.status.CaptureStatus;
import io.cdccompare.operations.status.PartitionStatus;
import io.cdccompare.operations.status.StatusReport;
import io.cdccompare.operations.status.TargetStatus;
import io.cdccompare.report.read.DifferenceKeys;
import io.cdccompare.report.read.ReportRow;
import io.cdccompare.report.read.TargetReport;
import io.cdccompare.report.read.TaskReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the report as one self-contained HTML page: inline CSS and JavaScript, no request to any
 * network, no external font or script. It shows a grid of targets × tables coloured by status, the
 * run history of each task as an inline SVG chart, per table a chunk strip (each chunk's verdict
 * per target) and its difference keys (paged in the browser, capped with a count of the rest) with
 * their explanations, and the status page's lag figures. Every text from a topic or a database is
 * HTML-escaped, and data embedded for the pager is JSON with {@code <}, {@code >} and {@code &}
 * escaped, so no value can close a tag.
 *
 * <p>Sized for big runs: the grid is one table row per source table, a table's details are folded
 * when more than {@value #OPEN_TABLES} tables differ, a strip of more than {@value #STRIP_CELLS}
 * chunks shows the worst verdict of each run of chunks, and only the first {@value #PAGE} keys of a
 * list are in the document until the pager asks for more.
 */
public final class ReportPage {
  /** Keys shown per page of a key list. */
  static final int PAGE = 50;

  /** Cells of a chunk strip at most; more chunks are grouped. */
  static final int STRIP_CELLS = 400;

  /** Tables whose details are open when the page loads, at most. */
  static final int OPEN_TABLES = 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The page's style and script (resources beside this class), inlined into every page, which loads
   * nothing; the script's {@code %d} is the keys per page.
   */
  private static final String CSS = resource("report-page.css");

  private static final String JS = resource("report-page.js").formatted(PAGE);
  static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final PageData data;
  private final StringBuilder out = new StringBuilder(64 * 1024);

  /** Whether the table being written is open on load (its first keys are then in the document). */
  private boolean open;

  private ReportPage(PageData data) {
    this.data = data;
  }

  /** The page as one HTML document. */
  public static String render(PageData data) {
    return new ReportPage(data).page();
  }

  /** Writes the page to {@code sink}. */
  public static void write(PageData data, Appendable sink) {
    try {
      sink.append(render(data));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record TableId(String task, String table) {}

  private String page() {
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    // no favicon request: the page asks nothing of any server
    out.append("<link rel=\"icon\" href=\"data:,\">");
    out.append("<title>cdc-compare report ").append(esc(data.topicPrefix())).append("</title>");
    out.append("<style>").append(CSS).append("</style></head>\n");
    out.append("<body data-refresh=\"").append(data.refreshSeconds()).append("\">\n");
    out.append("<header><h1>cdc-compare report <span class=\"prefix\">")
        .append(esc(data.topicPrefix()))
        .append("</span></h1><p>")
        .append("<span class=\"badge s-")
        .append(esc(data.outcome().kind().name()))
        .append("\" id=\"outcome\">")
        .append(esc(data.outcome().kind().name()))
        .append("</span> exit code ")
        .append(data.outcome().exitCode())
        .append(data.outcome().reason().map(r -> " — " + esc(r)).orElse(""))
        .append("</p><p class=\"muted\">written ")
        .append(TIME.format(data.writtenAt()));
    if (data.refreshSeconds() > 0) {
      out.append(" · live, reloads every ")
          .append(data.refreshSeconds())
          .append(" s <label><input type=\"checkbox\" id=\"pause\"> pause</label>");
    }
    out.append("</p><nav><a href=\"#grid\">status</a> <a href=\"#history\">history</a> ")
        .append("<a href=\"#lag\">lag</a> <a href=\"#tables\">tables</a></nav></header>\n");
    Map<TableId, Map<String, ReportRow>> tables = tables();
    grid(tables);
    HistorySection.write(out, data.history());
    lag();
    details(tables);
    out.append("<script>").append(JS).append("</script>\n</body></html>\n");
    return out.toString();
  }

  /** Per task and table, its row on each target, in report order. */
  private Map<TableId, Map<String, ReportRow>> tables() {
    Map<TableId, Map<String, ReportRow>> tables = new LinkedHashMap<>();
    for (TaskReport task : data.tasks()) {
      for (TargetReport target : task.targets()) {
        for (ReportRow row : target.tables()) {
          row.table()
              .ifPresent(
                  t ->
                      tables
                          .computeIfAbsent(new TableId(task.task(), t), k -> new LinkedHashMap<>())
                          .put(target.target(), row));
        }
      }
    }
    return tables;
  }

  private void grid(Map<TableId, Map<String, ReportRow>> tables) {
    out.append("<section id=\"grid\"><h2>Status: targets × tables</h2>\n");
    if (data.tasks().isEmpty()) {
      out.append("<p>The report holds no task yet.</p>");
    }
    for (TaskReport task : data.tasks()) {
      int index = 0; // the tables' numbers, as in details()
      out.append("<h3>task ").append(esc(task.task())).append("</h3>");
      out.append("<table class=\"grid\"><thead><tr><th>table</th>");
      for (TargetReport target : task.targets()) {
        out.append("<th>").append(esc(target.target())).append("</th>");
      }
      out.append("</tr></thead><tbody>");
      out.append("<tr class=\"total\"><td>(all tables)</td>");
      for (TargetReport target : task.targets()) {
        cell(target.total());
      }
      out.append("</tr>");
      for (Map.Entry<TableId, Map<String, ReportRow>> e : tables.entrySet()) {
        index++;
        if (!e.getKey().task().equals(task.task())) {
          continue;
        }
        out.append("<tr><td><a href=\"#t")
            .append(index)
            .append("\">")
            .append(esc(e.getKey().table()))
            .append("</a></td>");
        for (TargetReport target : task.targets()) {
          ReportRow row = e.getValue().get(target.target());
          if (row == null) {
            out.append("<td class=\"s-NO_RESULTS\">NO_RESULTS</td>");
          } else {
            cell(row);
          }
        }
        out.append("</tr>");
      }
      out.append("</tbody></table>\n");
    }
    out.append("</section>\n");
  }

  private void cell(ReportRow row) {
    RowTotals r = row.totals().rows();
    out.append("<td class=\"s-")
        .append(row.status().name())
        .append("\" title=\"run ")
        .append(esc(row.runId().orElse("-")))
        .append(": matched ")
        .append(r.matched())
        .append(", failed ")
        .append(r.failed())
        .append(", missed ")
        .append(r.missed())
        .append(", extra ")
        .append(r.extra())
        .append(", in flight ")
        .append(r.inFlight())
        .append(", chunks ")
        .append(row.verified())
        .append("/")
        .append(row.noted())
        .append("\">")
        .append(row.status().name());
    long different = r.failed() + r.missed() + r.extra();
    if (different > 0) {
      out.append(" <small>").append(different).append("</small>");
    }
    out.append("</td>");
  }

  private void lag() {
    out.append("<section id=\"lag\"><h2>Lag</h2>\n");
    if (data.status().isEmpty()) {
      out.append("<p class=\"muted\">not read</p></section>\n");
      return;
    }
    StatusReport status = data.status().get();
    out.append("<p class=\"muted\">read ").append(TIME.format(status.readAt())).append("</p>");
    if (status.kafkaUnreachable() != null) {
      out.append("<p class=\"bad\">Kafka UNREACHABLE: ")
          .append(esc(status.kafkaUnreachable()))
          .append("</p>");
    }
    CaptureStatus capture = status.capture();
    if (capture != null) {
      out.append("<p>capture slot <b>").append(esc(capture.slot())).append("</b>: ");
      if (capture.state() == CaptureStatus.State.OK) {
        out.append(Boolean.TRUE.equals(capture.active()) ? "active" : "inactive")
            .append(", wal_status ")
            .append(esc(String.valueOf(capture.walStatus())))
            .append(", behind ")
            .append(capture.behindBytes() == null ? "-" : capture.behindBytes() + " bytes");
      } else {
        out.append(capture.state().name());
        if (capture.unreachable() != null) {
          out.append(": ").append(esc(capture.unreachable()));
        }
      }
      out.append("</p>");
    }
    out.append("<table class=\"lag\"><thead><tr><th>target</th><th>lag (records)</th>")
        .append("<th>lag (s)</th><th>partitions</th><th>note</th></tr></thead><tbody>");
    for (TargetStatus target : status.targets()) {
      out.append("<tr><td>").append(esc(target.name())).append("</td>");
      if (target.unreachable() != null) {
        out.append("<td colspan=\"3\" class=\"bad\">UNREACHABLE</td><td>")
            .append(esc(target.unreachable()))
            .append("</td></tr>");
        continue;
      }
      long problems = target.partitions().stream().filter(p -> p.problem() != null).count();
      out.append("<td class=\"n\">")
          .append(target.lagRecords())
          .append("</td><td class=\"n\">")
          .append(String.format(Locale.ROOT, "%.1f", target.lagSeconds()))
          .append("</td><td class=\"n\">")
          .append(target.partitions().size())
          .append("</td><td>");
      if (problems > 0) {
        out.append("<span class=\"bad\">").append(problems).append(" RESYNC_NEEDED</span> ");
      }
      for (PartitionStatus p : target.partitions()) {
        if (p.problem() != null) {
          out.append(esc(p.topic() + "-" + p.partition() + ": " + p.problem())).append(' ');
        }
      }
      if (target.note() != null) {
        out.append(esc(target.note()));
      }
      out.append("</td></tr>");
    }
    out.append("</tbody></table></section>\n");
  }

  private void details(Map<TableId, Map<String, ReportRow>> tables) {
    out.append("<section id=\"tables\"><h2>Tables</h2>\n");
    long differing =
        tables.values().stream()
            .filter(rows -> rows.values().stream().anyMatch(ReportRow::hasDifferences))
            .count();
    Map<String, List<RowExplanation>> explained = new LinkedHashMap<>();
    for (RowExplanation e : data.explanations()) {
      explained
          .computeIfAbsent(
              e.task() + "\u0000" + e.target() + "\u0000" + e.table(), k -> new ArrayList<>())
          .add(e);
    }
    int index = 0;
    for (Map.Entry<TableId, Map<String, ReportRow>> e : tables.entrySet()) {
      TableId id = e.getKey();
      index++;
      boolean differs = e.getValue().values().stream().anyMatch(ReportRow::hasDifferences);
      out.append("<details class=\"table\" id=\"t")
          .append(index)
          .append("\"")
          .append(differs && differing <= OPEN_TABLES ? " open" : "")
          .append("><summary><b>")
          .append(esc(id.table()))
          .append("</b> <span class=\"muted\">task ")
          .append(esc(id.task()))
          .append("</span>");
      for (Map.Entry<String, ReportRow> row : e.getValue().entrySet()) {
        out.append(" <span class=\"badge s-")
            .append(row.getValue().status().name())
            .append("\">")
            .append(esc(row.getKey()))
            .append(": ")
            .append(row.getValue().status().name())
            .append("</span>");
      }
      out.append("</summary>");
      open = differs && differing <= OPEN_TABLES;
      if (!open) {
        // a folded table's body is inert text until it is opened: a big page stays light
        out.append("<script type=\"text/html\" class=\"lazy\">");
      }
      for (Map.Entry<String, ReportRow> row : e.getValue().entrySet()) {
        target(
            id,
            row.getKey(),
            row.getValue(),
            explained.getOrDefault(
                id.task() + "\u0000" + row.getKey() + "\u0000" + id.table(), List.of()));
      }
      if (!open) {
        out.append("</script>");
      }
      out.append("</details>\n");
    }
    out.append("</section>\n");
  }

  private void target(TableId id, String target, ReportRow row, List<RowExplanation> explained) {
    RowTotals r = row.totals().rows();
    out.append("<div class=\"target\"><h4>")
        .append(esc(target))
        .append(" <span class=\"muted\">run ")
        .append(esc(row.runId().orElse("-")))
        .append(" · chunks ")
        .append(row.verified())
        .append("/")
        .append(row.noted())
        .append(" · matched ")
        .append(r.matched())
        .append(", failed ")
        .append(r.failed())
        .append(", missed ")
        .append(r.missed())
        .append(", extra ")
        .append(r.extra())
        .append(", in flight ")
        .append(r.inFlight())
        .append("</span></h4>");
    row.runId().ifPresent(run -> strip(data.strips().strip(id.task(), run, id.table(), target)));
    row.keys().ifPresent(keys -> keys(keys));
    for (RowExplanation e : explained) {
      explanation(e);
    }
    out.append("</div>");
  }

  private void strip(TreeMap<Long, ChunkStrips.Verdict> strip) {
    if (strip.isEmpty()) {
      return;
    }
    List<Long> numbers = new ArrayList<>(strip.keySet());
    int per = (numbers.size() + STRIP_CELLS - 1) / STRIP_CELLS;
    int cells = (numbers.size() + per - 1) / per;
    int w = Math.max(2, Math.min(14, 800 / cells));
    out.append("<svg class=\"strip\" width=\"")
        .append(cells * w)
        .append("\" height=\"14\" role=\"img\" aria-label=\"chunk verdicts\">");
    for (int c = 0; c < cells; c++) {
      int from = c * per;
      int to = Math.min(numbers.size(), from + per);
      ChunkStrips.Verdict worst = ChunkStrips.Verdict.MATCHED;
      for (int i = from; i < to; i++) {
        ChunkStrips.Verdict v = strip.get(numbers.get(i));
        if (v.ordinal() < worst.ordinal()) {
          worst = v;
        }
      }
      out.append("<rect class=\"c-")
          .append(worst.name())
          .append("\" x=\"")
          .append(c * w)
          .append("\" width=\"")
          .append(w - (w > 3 ? 1 : 0))
          .append("\" height=\"14\"><title>chunk ")
          .append(numbers.get(from))
          .append(to - from > 1 ? "–" + numbers.get(to - 1) : "")
          .append(": ")
          .append(worst.name())
          .append("</title></rect>");
    }
    out.append("</svg>");
  }

  private void keys(DifferenceKeys keys) {
    keyList("failed", keys.failed());
    keyList("missed", keys.missed());
    keyList("extra", keys.extra());
  }

  private void keyList(String kind, DifferenceKeys.Keys keys) {
    if (keys.total() == 0) {
      return;
    }
    List<String> shown = keys.shown();
    out.append("<div class=\"keys\" data-kind=\"").append(kind).append("\"");
    if (shown.size() > PAGE) {
      out.append(" data-keys=\"").append(esc(json(shown))).append("\"");
    }
    out.append("><p>").append(kind).append(" keys (").append(keys.total()).append(")");
    if (keys.omitted() > 0) {
      out.append(" <span class=\"muted\">first ")
          .append(shown.size())
          .append(" kept, ")
          .append(keys.omitted())
          .append(" more not in this page (--max-keys)</span>");
    }
    out.append("</p><ul>");
    for (String key : shown.subList(0, Math.min(PAGE, shown.size()))) {
      out.append("<li>").append(esc(key)).append("</li>");
    }
    out.append("</ul>");
    if (shown.size() > PAGE) {
      out.append("<p class=\"pager\"><button type=\"button\" class=\"prev\">‹ previous</button> ")
          .append("<span class=\"pos\">1–")
          .append(PAGE)
          .append(" of ")
          .append(shown.size())
          .append("</span> <button type=\"button\" class=\"next\">next ›</button></p>");
    }
    out.append("</div>");
  }

  private void explanation(RowExplanation e) {
    out.append("<div class=\"explain\"><p><b>key ")
        .append(esc(e.key()))
        .append("</b> (")
        .append(esc(e.runOutcome()))
        .append(" in run ")
        .append(esc(e.runId()))
        .append("): ")
        .append(esc(e.nowText()))
        .append(". <span class=\"")
        .append(e.sinceRun() == RowExplanation.SinceRun.UNCHANGED ? "muted" : "warn")
        .append("\">")
        .append(esc(e.sinceRunText()))
        .append(".</span></p>");
    out.append(
        "<table><thead><tr><th>column</th><th>source</th><th>target</th></tr></thead><tbody>");
    for (ColumnExplanation c : e.columns()) {
      out.append("<tr")
          .append(c.differs() ? " class=\"differs\"" : "")
          .append("><td>")
          .append(esc(c.sourceColumn()))
          .append(c.sourceColumn().equals(c.targetColumn()) ? "" : " → " + esc(c.targetColumn()))
          .append(c.masked() ? " <span class=\"muted\">(masked)</span>" : "")
          .append("</td><td>")
          .append(c.source() == null ? "<i>no row</i>" : "<code>" + esc(c.source()) + "</code>")
          .append("</td><td>")
          .append(c.target() == null ? "<i>no row</i>" : "<code>" + esc(c.target()) + "</code>")
          .append("</td></tr>");
    }
    out.append("</tbody></table></div>");
  }

  /** JSON safe inside a script element. */
  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value)
          .replace("<", "\\u003c")
          .replace(">", "\\u003e")
          .replace("&", "\\u0026");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String resource(String name) {
    try (InputStream in = ReportPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("report page resource " + name + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String esc(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String r =
          switch (c) {
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '&' -> "&amp;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default -> null;
          };
      if (r != null && b == null) {
        b = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (b != null) {
        if (r != null) {
          b.append(r);
        } else {
          b.append(c);
        }
      }
    }
    return b == null ? text : b.toString();
  }
}
