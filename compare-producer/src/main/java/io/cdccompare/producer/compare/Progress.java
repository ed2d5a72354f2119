package io.cdccompare.producer.compare;

import io.cdccompare.core.table.TableName;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows how far a compare task is, per table: rows and chunks done, rate and ETA (from the
 * catalog's row estimate). On a terminal a live bar redrawn in place on standard error; otherwise a
 * log line every {@code interval} and one when a table ends. Not thread-safe: the compare loop
 * calls it.
 */
class Progress {
  private static final Logger LOG = LoggerFactory.getLogger(Progress.class);
  private static final int BAR_WIDTH = 24;

  private final String task;
  private final Mode mode;
  private final long intervalNanos;
  private final PrintStream terminal;
  private final LongSupplier clock;
  private CompareMeters meters;

  private TableName table;
  private long estimatedRows;
  private long startRows;
  private long startNanos;
  private long lastShownNanos;

  enum Mode {
    BAR,
    LOG,
    OFF
  }

  Progress(String task, Mode mode, Duration interval, PrintStream terminal, LongSupplier clock) {
    this.task = task;
    this.mode = mode;
    this.intervalNanos = interval.toNanos();
    this.terminal = terminal;
    this.clock = clock;
  }

  /** {@code auto} is a bar when a terminal is attached, log lines otherwise. */
  static Progress of(String task, String setting, Duration interval) {
    Mode mode =
        switch (setting) {
          case "bar" -> Mode.BAR;
          case "log" -> Mode.LOG;
          case "off" -> Mode.OFF;
          default -> System.console() != null ? Mode.BAR : Mode.LOG;
        };
    return new Progress(task, mode, interval, System.err, System::nanoTime);
  }

  /**
   * @param estimatedRows the catalog's estimate of the table's rows (0 when unknown)
   * @param rowsDone rows already read in an earlier, stopped part of this run
   */
  /** Records the progress in {@code meters} too; returns this. */
  Progress recordingIn(CompareMeters meters) {
    this.meters = meters;
    return this;
  }

  void tableStarted(TableName table, long estimatedRows, long rowsDone) {
    if (meters != null) {
      meters.tableStarted(table, estimatedRows, rowsDone);
    }
    this.table = table;
    this.estimatedRows = estimatedRows;
    this.startRows = rowsDone;
    this.startNanos = clock.getAsLong();
    this.lastShownNanos = startNanos;
  }

  void chunkDone(long rowsDone, long chunksDone) {
    if (meters != null) {
      meters.rowsDone(table, rowsDone, false);
    }
    long now = clock.getAsLong();
    if (mode == Mode.BAR) {
      terminal.print("\r" + line(rowsDone, chunksDone, now));
      terminal.flush();
    } else if (mode == Mode.LOG && now - lastShownNanos >= intervalNanos) {
      LOG.info("task={} {}", task, line(rowsDone, chunksDone, now));
      lastShownNanos = now;
    }
  }

  void tableDone(long rowsDone, long chunksDone) {
    if (meters != null) {
      meters.rowsDone(table, rowsDone, true);
    }
    long now = clock.getAsLong();
    estimatedRows = Math.max(estimatedRows, rowsDone);
    if (mode == Mode.BAR) {
      terminal.println("\r" + line(rowsDone, chunksDone, now));
    } else if (mode == Mode.LOG) {
      LOG.info("task={} {} done", task, line(rowsDone, chunksDone, now));
    }
  }

  /** {@code table=… rows=…/~… chunks=… rate=… rows/s eta=…}, with a bar in front on a terminal. */
  String line(long rowsDone, long chunksDone, long nowNanos) {
    double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
    double rate = (rowsDone - startRows) / seconds;
    long total = Math.max(estimatedRows, rowsDone);
    StringBuilder out = new StringBuilder();
    if (mode == Mode.BAR) {
      int filled = total == 0 ? BAR_WIDTH : (int) (BAR_WIDTH * rowsDone / total);
      out.append('[')
          .append("#".repeat(filled))
          .append(".".repeat(BAR_WIDTH - filled))
          .append("] ");
    }
    out.append("table=").append(table);
    out.append(String.format(Locale.ROOT, " rows=%,d/~%,d", rowsDone, total));
    out.append(" chunks=").append(chunksDone);
    out.append(String.format(Locale.ROOT, " rate=%,.0f rows/s", rate));
    out.append(" eta=").append(eta(total - rowsDone, rate));
    return out.toString();
  }

  static String eta(long rowsLeft, double rate) {
    if (rowsLeft <= 0) {
      return "0s";
    }
    if (rate <= 0) {
      return "?";
    }
    long seconds = (long) Math.ceil(rowsLeft / rate);
    return seconds >= 3600
        ? String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60)
        : seconds >= 60
            ? String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60)
            : seconds + "s";
  }
}
