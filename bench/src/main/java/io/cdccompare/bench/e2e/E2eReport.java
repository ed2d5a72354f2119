package io.cdccompare.bench.e2e;

import io.cdccompare.childverifier.HeapWatch;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Prints the figures of an end-to-end run as Markdown tables, every figure with its unit. */
public final class E2eReport {
  private static final int TOP_THREADS = 4;

  private E2eReport() {}

  public static void print(
      E2eOptions options, boolean external, List<TableRun> runs, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%nEndToEndThroughput: %,d rows per table, full compare at deep=100, chunk %s, %s;"
            + " %s; %s; %s%n%n",
        options.rows(),
        options.chunk() == null
            ? "10,000 (default)"
            : String.format(Locale.ROOT, "%,d", options.chunk()),
        runs.isEmpty() ? "" : runs.get(0).partitions() + " partitions per table topic",
        options.preload()
            ? "--preload: the rows loaded on the source and every target before the capture"
                + " started (no copy measured)"
            : "copy = bulk INSERT … SELECT generate_series in one transaction, streamed"
                + " (snapshot=never) and applied",
        external ? "external servers" : "embedded environment",
        options.warmupRows() > 0
            ? String.format(
                Locale.ROOT,
                "after an unmeasured warm-up (copy and compare of %,d rows)",
                options.warmupRows())
            : "no warm-up");
    if (settings(options.compareSettings(), options.verifierSettings(), out)) {
      out.println();
    }
    throughput(runs, out);
    stages(runs, out);
    cpu(runs, out);
    threads(runs, out);
    heap(runs, out);
    out.println();
    out.println(
        "copy = source commit of the load → the target's checkpoints cover every change (their"
            + " updated_at); capture = commit → every change in the topic (polled every 100 ms);"
            + " compare → last verdict = start of CompareRun.run() → the target's last chunk result"
            + " read from the results topic; producer alone = CompareRun.run() returning. Lag ="
            + " CLOSE note's notedAt on the source → the result's arrival here; deciles = results"
            + " of the first and last tenth of the chunks.");
  }

  /**
   * The compare task and verifier settings a run adds to the defaults, a line each when there are
   * any.
   *
   * @return whether verifier settings were printed
   */
  static boolean settings(
      Map<String, String> compare, Map<String, String> verifier, PrintStream out) {
    if (!compare.isEmpty()) {
      out.println("compare task settings on top of the defaults: " + compare);
    }
    if (!verifier.isEmpty()) {
      out.println("verifier settings on top of the defaults: " + verifier);
    }
    return !verifier.isEmpty();
  }

  private static void throughput(List<TableRun> runs, PrintStream out) {
    out.println(
        "| table | target | rows | copy s | copy rows/s | capture s | compare → last verdict s"
            + " | compare rows/s | producer alone s | producer rows/s | lag p50 ms | lag p99 ms"
            + " | lag max ms | first decile p50 ms | last decile p50 ms | chunks | verdict |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (TableRun r : runs) {
      for (TableRun.TargetFigures t : r.targets()) {
        VerdictLags l = t.lags();
        out.printf(
            Locale.ROOT,
            "| %s | %s (%s) | %,d | %.2f | %,.0f | %.2f | %.2f | %,.0f | %.2f | %,.0f | %.0f | %.0f"
                + " | %.0f | %.0f | %.0f | %d | %s |%n",
            r.table().option(),
            t.target(),
            t.kind(),
            r.rows(),
            t.copySeconds(),
            r.rows() / t.copySeconds(),
            r.captureSeconds(),
            t.lastVerdictSeconds(),
            r.rows() / t.lastVerdictSeconds(),
            r.producerSeconds(),
            r.rows() / r.producerSeconds(),
            l.p50(),
            l.p99(),
            l.max(),
            l.firstDecileP50(),
            l.lastDecileP50(),
            r.chunks(),
            t.verdict());
      }
    }
  }

  private static void stages(List<TableRun> runs, PrintStream out) {
    out.println();
    out.println(
        "Lag by stage (ms): capture = note's notedAt → CLOSE marker sent by the capture; verify ="
            + " marker → verifiedAt (queueing behind the partition's earlier records included);"
            + " publish = verifiedAt → arrival here. Chunk interval: first → last verifiedAt per"
            + " chunk (the verifier's own time per chunk once it falls behind the producer), beside"
            + " the producer's time per chunk (CompareRun.run() / chunks)");
    out.println();
    out.println(
        "| table | target | results | capture p50 ms | verify p50 ms | verify p99 ms | publish p50 ms"
            + " | verdict interval ms/chunk | producer ms/chunk |");
    out.println("|---|---|---|---|---|---|---|---|---|");
    for (TableRun r : runs) {
      for (TableRun.TargetFigures t : r.targets()) {
        VerdictLags l = t.lags();
        out.printf(
            Locale.ROOT,
            "| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n",
            r.table().option(),
            t.target(),
            l.results(),
            l.captureP50(),
            l.verifyP50(),
            l.verifyP99(),
            l.publishP50(),
            l.chunkIntervalMs(),
            r.producerSeconds() * 1000 / r.chunks());
      }
    }
  }

  private static void cpu(List<TableRun> runs, PrintStream out) {
    Set<String> parts = new LinkedHashSet<>();
    runs.forEach(
        r -> {
          if (r.copy() != null) {
            parts.addAll(r.copy().cpuSeconds().keySet());
          }
          parts.addAll(r.compare().cpuSeconds().keySet());
        });
    out.println();
    out.println(
        "CPU µs per row of each process over each window (from /proc; "
            + ProcessCpuMeter.SELF
            + " = the capture, the compare producer and this benchmark's readers)");
    out.println();
    List<String> header = new ArrayList<>(List.of("table", "window", "window s"));
    parts.forEach(p -> header.add(p + " µs/row"));
    header.add("total µs/row");
    out.println("| " + String.join(" | ", header) + " |");
    out.println("|" + "---|".repeat(header.size()));
    for (TableRun r : runs) {
      if (r.copy() != null) {
        cpuLine(r, "copy", r.copy(), parts, out);
      }
      cpuLine(r, "compare", r.compare(), parts, out);
    }
  }

  private static void cpuLine(
      TableRun r, String window, TableRun.Window w, Set<String> parts, PrintStream out) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT, "| %s | %s | %.2f |", r.table().option(), window, w.seconds()));
    double total = 0;
    for (String part : parts) {
      Double seconds = w.cpuSeconds().get(part);
      if (seconds == null) {
        line.append(" n/a |");
      } else {
        double perRow = seconds * 1e6 / r.rows();
        total += perRow;
        line.append(String.format(Locale.ROOT, " %.2f |", perRow));
      }
    }
    line.append(String.format(Locale.ROOT, " %.2f |", total));
    out.println(line);
  }

  /**
   * The thread groups that used the most CPU in each JVM over each window, and what the JVM used
   * outside its Java threads (JIT compiler, collector, VM threads, threads that ended inside the
   * window).
   */
  private static void threads(List<TableRun> runs, PrintStream out) {
    out.println();
    out.println(
        "Where each JVM's CPU went: its "
            + TOP_THREADS
            + " busiest Java thread groups per window, and the rest of the process's CPU (JIT"
            + " compiler, GC and VM threads, threads that ended inside the window), µs per row");
    out.println();
    out.println("| table | window | JVM | thread group | µs/row |");
    out.println("|---|---|---|---|---|");
    for (TableRun r : runs) {
      if (r.copy() != null) {
        threadLines(r, "copy", r.copy(), out);
      }
      threadLines(r, "compare", r.compare(), out);
    }
  }

  private static void threadLines(TableRun r, String window, TableRun.Window w, PrintStream out) {
    w.threadSeconds()
        .forEach(
            (jvm, groups) -> {
              groups.entrySet().stream()
                  .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                  .limit(TOP_THREADS)
                  .forEach(g -> threadLine(r, window, jvm, g.getKey(), g.getValue(), out));
              Double process = w.cpuSeconds().get(jvm);
              if (process != null) {
                double java = groups.values().stream().mapToDouble(Double::doubleValue).sum();
                threadLine(r, window, jvm, "(not Java threads)", process - java, out);
              }
            });
  }

  private static void threadLine(
      TableRun r, String window, String jvm, String group, double seconds, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %s | %.2f |%n",
        r.table().option(),
        window,
        jvm,
        group,
        seconds * 1e6 / r.rows());
  }

  private static void heap(List<TableRun> runs, PrintStream out) {
    out.println();
    out.println(
        "Heap of each JVM this benchmark runs, per window: largest used heap sampled every 50 ms /"
            + " largest used heap right after a collection (MiB), and -Xmx");
    out.println();
    Set<String> jvms = new LinkedHashSet<>();
    runs.forEach(r -> jvms.addAll(r.compare().heaps().keySet()));
    List<String> header = new ArrayList<>(List.of("table", "window"));
    jvms.forEach(j -> header.add(j + " peak / live MiB"));
    out.println("| " + String.join(" | ", header) + " |");
    out.println("|" + "---|".repeat(header.size()));
    for (TableRun r : runs) {
      if (r.copy() != null) {
        heapLine(r, "copy", r.copy().heaps(), jvms, out);
      }
      heapLine(r, "compare", r.compare().heaps(), jvms, out);
    }
    if (!runs.isEmpty()) {
      StringBuilder max = new StringBuilder("| -Xmx | |");
      for (String j : jvms) {
        HeapWatch.Heap h = runs.get(0).compare().heaps().get(j);
        max.append(h == null ? " |" : String.format(Locale.ROOT, " %.0f MiB |", mib(h.max())));
      }
      out.println(max);
    }
  }

  private static void heapLine(
      TableRun r,
      String window,
      Map<String, HeapWatch.Heap> heaps,
      Set<String> jvms,
      PrintStream out) {
    StringBuilder line = new StringBuilder("| " + r.table().option() + " | " + window + " |");
    for (String j : jvms) {
      HeapWatch.Heap h = heaps.get(j);
      line.append(
          h == null
              ? " n/a |"
              : String.format(
                  Locale.ROOT, " %.0f / %.0f |", mib(h.sampledPeak()), mib(h.liveAfterGc())));
    }
    out.println(line);
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
