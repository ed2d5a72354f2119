package io.cdccompare.app.demo;

import io.cdccompare.app.config.TargetsConfig;
import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.topology.report.ReportReader;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the targets reported on one compare run of the demo: the report topic's entries of the run's
 * tables on each target, refreshed until every chunk is verified everywhere, and the keys of the
 * differences from the chunk results. Used from one thread.
 */
final class DemoReport {
  private final TargetsConfig targets;
  private final CompareRun.Summary run;
  private final ReportReader reader;
  private final Map<String, ReportEntry> entries = new HashMap<>();

  private DemoReport(TargetsConfig targets, CompareRun.Summary run, ReportReader reader) {
    this.targets = targets;
    this.run = run;
    this.reader = reader;
  }

  static DemoReport reader(TargetsConfig targets, CompareRun.Summary run) {
    return new DemoReport(
        targets,
        run,
        new ReportReader(
            targets.reportConfig(),
            targets.bootstrapServers(),
            targets.withPrefix("consumer."),
            Duration.ofSeconds(30)));
  }

  /** How far the targets are: chunks verified of the run's chunks, over every target. */
  record Progress(long verified, long expected, String label) {
    boolean complete() {
      return verified == expected;
    }
  }

  /** Reads the report again. */
  Progress refresh() {
    entries.clear();
    for (ReportEntry entry : reader.entries()) {
      if (entry.getTable() != null && Demo.TASK.equals(entry.getTask())) {
        entries.put(entry.getTarget() + "/" + entry.getTable(), entry);
      }
    }
    long verified = 0;
    long expected = 0;
    StringBuilder label = new StringBuilder("chunks verified:");
    for (String target : targets.targetNames()) {
      long done = 0;
      long all = 0;
      for (CompareRun.TableDone table : run.tables()) {
        all += table.chunks();
        ReportEntry entry = entry(target, table);
        done += entry == null ? 0 : Math.min(entry.getApplyChunks(), table.chunks());
      }
      verified += done;
      expected += all;
      label.append(' ').append(target).append(' ').append(done).append('/').append(all);
    }
    return new Progress(verified, expected, label.toString());
  }

  /** The entry of a table of the run on a target, or null while none of this run exists. */
  ReportEntry entry(String target, CompareRun.TableDone table) {
    ReportEntry entry = entries.get(target + "/" + table.table());
    return entry != null && table.runId().equals(entry.getRunId()) ? entry : null;
  }

  List<String> targetNames() {
    return targets.targetNames();
  }

  List<CompareRun.TableDone> tables() {
    return run.tables();
  }

  /** One line: each target's status over the run's tables. */
  String headline() {
    StringBuilder line = new StringBuilder();
    for (String target : targets.targetNames()) {
      long matched = 0;
      long differences = 0;
      long inFlight = 0;
      for (CompareRun.TableDone table : run.tables()) {
        ReportEntry e = entry(target, table);
        matched += e.getCounts().getMatched();
        differences += e.getCounts().getFailed() + e.getCounts().getMissed();
        differences += e.getCounts().getExtra();
        inFlight += e.getCounts().getInFlight();
      }
      if (line.length() > 0) {
        line.append("; ");
      }
      line.append(
          String.format(
              Locale.ROOT,
              "target %s: %s, %,d rows matched, %d in flight",
              target,
              differences == 0 ? "in sync" : differences + " rows differ",
              matched,
              inFlight));
    }
    return line.toString();
  }

  /** The keys of one kind of difference of a table on a target, sorted, without duplicates. */
  TreeSet<String> keys(String target, CompareRun.TableDone table, String kind) {
    TreeSet<String> keys = new TreeSet<>();
    for (ChunkResult r :
        reader.results(
            r ->
                r.getTarget().equals(target)
                    && r.getRunId().equals(table.runId())
                    && r.getTable().equals(table.table().toString()))) {
      keys.addAll(
          switch (kind) {
            case "failed" -> r.getFailedKeys();
            case "missed" -> r.getMissedKeys();
            default -> r.getExtraKeys();
          });
    }
    return keys;
  }

  /** The report of the run: per target and table, status and counts; keys when asked. */
  void print(PrintWriter out, boolean withKeys) {
    out.printf(
        "      %-6s %-16s %-12s %6s %9s %6s %6s %6s %9s%n",
        "target", "table", "status", "chunks", "matched", "failed", "missed", "extra", "in flight");
    for (String target : targets.targetNames()) {
      for (CompareRun.TableDone table : run.tables()) {
        ReportEntry e = entry(target, table);
        out.printf(
            Locale.ROOT,
            "      %-6s %-16s %-12s %6d %9d %6d %6d %6d %9d%n",
            target,
            table.table(),
            e.getStatus(),
            e.getApplyChunks(),
            e.getCounts().getMatched(),
            e.getCounts().getFailed(),
            e.getCounts().getMissed(),
            e.getCounts().getExtra(),
            e.getCounts().getInFlight());
        if (withKeys) {
          for (String kind : List.of("failed", "missed", "extra")) {
            TreeSet<String> keys = keys(target, table, kind);
            if (!keys.isEmpty()) {
              out.printf("               %s keys: %s%n", kind, String.join(" ", keys));
            }
          }
        }
      }
    }
    out.flush();
  }
}
