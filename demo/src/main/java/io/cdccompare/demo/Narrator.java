package io.cdccompare.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * The demo's voice: one numbered line per step with the time it took, and for a long step a
 * progress bar redrawn in place — on a terminal only; elsewhere (a log, a CI job) a progress line
 * at most every few seconds. Used from one thread.
 */
final class Narrator {
  private static final int BAR_WIDTH = 30;
  private static final long LINE_INTERVAL_NANOS = Duration.ofSeconds(5).toNanos();

  private final PrintWriter out;
  private final boolean terminal;
  private final int steps;
  private final long started = System.nanoTime();
  private int step;
  private long stepStarted;
  private long lastLine;
  private boolean barShown;

  Narrator(PrintWriter out, boolean terminal, int steps) {
    this.out = out;
    this.terminal = terminal;
    this.steps = steps;
  }

  /** Starts the next step with one line saying what it does. */
  void step(String what) {
    step++;
    stepStarted = System.nanoTime();
    lastLine = stepStarted;
    out.printf("[%d/%d] %s%n", step, steps, what);
    out.flush();
  }

  /** Ends the step: how long it took and what came of it. */
  void done(String result) {
    clearBar();
    out.printf("      %s (%s)%n", result, seconds(System.nanoTime() - stepStarted));
    out.flush();
  }

  /** A line inside the step, indented under it. */
  void say(String line) {
    clearBar();
    out.println("      " + line);
    out.flush();
  }

  /** Shows {@code done} of {@code total} with a label: redrawn on a terminal, a line otherwise. */
  void progress(long done, long total, String label) {
    long now = System.nanoTime();
    double share = total <= 0 ? 1 : Math.min(1, (double) done / total);
    if (terminal) {
      int filled = (int) Math.round(share * BAR_WIDTH);
      out.printf(
          Locale.ROOT,
          "\r      [%s%s] %3.0f%% %s\u001b[K",
          "#".repeat(filled),
          ".".repeat(BAR_WIDTH - filled),
          share * 100,
          label);
      out.flush();
      barShown = true;
    } else if (now - lastLine >= LINE_INTERVAL_NANOS) {
      out.printf(Locale.ROOT, "      %3.0f%% %s%n", share * 100, label);
      out.flush();
      lastLine = now;
    }
  }

  /** Time since the demo started, for the last line. */
  String elapsed() {
    return seconds(System.nanoTime() - started);
  }

  private void clearBar() {
    if (barShown) {
      out.print("\r\u001b[K");
      barShown = false;
    }
  }

  static String seconds(long nanos) {
    long tenths = nanos / 100_000_000L;
    if (tenths < 600) {
      return String.format(Locale.ROOT, "%d.%d s", tenths / 10, tenths % 10);
    }
    long s = tenths / 10;
    return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
  }
}
