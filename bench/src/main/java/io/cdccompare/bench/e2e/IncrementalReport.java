package io.cdccompare.bench.e2e;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Prints the figures of {@code IncrementalVsFull} as Markdown tables, every figure with its unit.
 */
public final class IncrementalReport {
  private IncrementalReport() {}

  public static void print(
      IncrementalOptions options, List<IncrementalBenchmark.Round> rounds, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%nIncrementalVsFull: %,d rows (narrow), %,d changed keys per round, targets %s,"
            + " embedded environment, preloaded; %s%n",
        options.rows(),
        options.changed(),
        options.targets(),
        options.warmupRows() > 0
            ? String.format(
                Locale.ROOT,
                "after an unmeasured warm-up (%d rounds on %,d rows)",
                options.warmupRounds(),
                options.warmupRows())
            : "no warm-up");
    E2eReport.settings(options.compareSettings(), options.verifierSettings(), out);
    out.println();
    out.println(
        "| round | rows | changed keys (upd / ins / del) | applied s | full s (producer s) |"
            + " incremental s (producer s) | ratio full / incremental |");
    out.println("|---|---|---|---|---|---|---|");
    for (IncrementalBenchmark.Round r : rounds) {
      out.printf(
          Locale.ROOT,
          "| %d | %,d | %,d (%d / %d / %d) | %.2f | %.2f (%.2f) | %.3f (%.3f) | **%.1f** |%n",
          r.round(),
          r.rows(),
          r.changed().total(),
          r.changed().updates(),
          r.changed().inserts(),
          r.changed().deletes(),
          r.appliedSeconds(),
          r.full().lastVerdictSeconds(),
          r.full().producerSeconds(),
          r.incremental().lastVerdictSeconds(),
          r.incremental().producerSeconds(),
          r.full().lastVerdictSeconds() / r.incremental().lastVerdictSeconds());
    }
    phases(rounds, out);
    cpu(rounds, out);
    threads(rounds, out);
    out.println();
    out.println(
        "full / incremental s = start of run() → arrival here of the last chunk result of the run"
            + " (chunks × partitions per target) of the last target; producer = run() returning;"
            + " applied = the changes' commit → every target holds them (polled every 20 ms).");
  }

  private static void phases(List<IncrementalBenchmark.Round> rounds, PrintStream out) {
    out.println();
    out.println(
        "Incremental run, where the time goes (ms; each step from the end of the one before,"
            + " last column from the start of run()):");
    out.println();
    out.println(
        "| round | target | range check | changed-key read | key-list run setup |"
            + " source look-ups + hash records + CLOSE | run end | CLOSE → marker in topic |"
            + " marker → verdict (verifier) | publish → here | last verdict at |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    for (IncrementalBenchmark.Round r : rounds) {
      IncrementalBenchmark.Phases p = r.phases();
      for (Map.Entry<String, double[]> t : p.targets().entrySet()) {
        double[] v = t.getValue(); // noted, marker, verified, arrived
        out.printf(
            Locale.ROOT,
            "| %d | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n",
            r.round(),
            t.getKey(),
            p.rangeChecked(),
            p.keysRead() - p.rangeChecked(),
            p.opened() - p.keysRead(),
            p.closed() - p.opened(),
            p.returned() - p.closed(),
            v[1] - v[0],
            v[2] - v[1],
            v[3] - v[2],
            v[3]);
      }
    }
    out.println();
    out.println(
        "range check = resolve, topic checks, lock, end offsets, earliest offsets and cleanup"
            + " policy (IncrementalRun's \"starts\" line); changed-key read = the table topic from"
            + " the completed offsets to the end (its \"changed_keys\" line); key-list run setup ="
            + " connections, checks, hashes topic, producer, OPEN note (chunk opened);"
            + " look-ups + hash records + CLOSE = KeyListRun's \"done\" line; run end = completed"
            + " offsets written, clients closed; then the CLOSE note's notedAt on the source (a few"
            + " ms before its commit) → the CLOSE marker's record timestamp (capture) → verifiedAt"
            + " (hash records loaded, target look-ups, verdict stored) → arrival here. The capture"
            + " of the CLOSE overlaps the run end.");
  }

  private static void cpu(List<IncrementalBenchmark.Round> rounds, PrintStream out) {
    Set<String> parts = new LinkedHashSet<>();
    rounds.forEach(
        r -> {
          parts.addAll(r.full().window().cpuSeconds().keySet());
          parts.addAll(r.incremental().window().cpuSeconds().keySet());
        });
    out.println();
    out.println("CPU seconds of each process over each run's window (from /proc):");
    out.println();
    List<String> header = new ArrayList<>(List.of("round", "run", "window s"));
    header.addAll(parts);
    header.add("total CPU s");
    header.add("cores busy");
    out.println("| " + String.join(" | ", header) + " |");
    out.println("|" + "---|".repeat(header.size()));
    for (IncrementalBenchmark.Round r : rounds) {
      cpuLine(r.round(), "full", r.full().window(), parts, out);
      cpuLine(r.round(), "incremental", r.incremental().window(), parts, out);
    }
  }

  /**
   * Where this JVM's CPU went during each incremental run, by thread as the kernel names it: the
   * JIT compilers apart, the run's own thread ({@code java}, this benchmark's main thread), the
   * rest.
   */
  private static void threads(List<IncrementalBenchmark.Round> rounds, PrintStream out) {
    out.println();
    out.println(
        "CPU ms of this JVM's threads over each incremental run, from the start of run() to the"
            + " last verdict read (/proc/self/task; a thread that ended inside the window is not"
            + " counted):");
    out.println();
    out.println("| round | JIT compilers | the run's thread | other threads (busiest) | total |");
    out.println("|---|---|---|---|---|");
    for (IncrementalBenchmark.Round r : rounds) {
      Map<String, Double> threads = r.incrementalThreads();
      double jit =
          threads.entrySet().stream()
              .filter(e -> e.getKey().contains("CompilerThre"))
              .mapToDouble(Map.Entry::getValue)
              .sum();
      double run = threads.getOrDefault("java", 0.0);
      double total = threads.values().stream().mapToDouble(Double::doubleValue).sum();
      String others =
          threads.entrySet().stream()
              .filter(e -> !e.getKey().contains("CompilerThre") && !e.getKey().equals("java"))
              .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
              .limit(3)
              .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue() * 1000))
              .collect(java.util.stream.Collectors.joining(", "));
      out.printf(
          Locale.ROOT,
          "| %d | %.0f | %.0f | %.0f (%s) | %.0f |%n",
          r.round(),
          jit * 1000,
          run * 1000,
          (total - jit - run) * 1000,
          others,
          total * 1000);
    }
  }

  private static void cpuLine(
      int round, String run, TableRun.Window w, Set<String> parts, PrintStream out) {
    StringBuilder line =
        new StringBuilder(
            String.format(Locale.ROOT, "| %d | %s | %.3f |", round, run, w.seconds()));
    double total = 0;
    for (String part : parts) {
      Double seconds = w.cpuSeconds().get(part);
      if (seconds == null) {
        line.append(" n/a |");
      } else {
        total += seconds;
        line.append(String.format(Locale.ROOT, " %.3f |", seconds));
      }
    }
    line.append(String.format(Locale.ROOT, " %.3f | %.2f |", total, total / w.seconds()));
    out.println(line);
  }
}
