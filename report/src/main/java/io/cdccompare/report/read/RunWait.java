package io.cdccompare.report.read;

import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code compare run --wait}: after a run noted every chunk, polls the report until every named
 * target has verified every noted chunk of the run on every table of it — an entry of that run id
 * whose verified chunks ({@code applyChunks}) reach the run's noted chunks — or a target reports
 * RESYNC_NEEDED on one of them (it will not catch up), or the timeout passes, or {@link #stop()}.
 * Only verified chunks count, not the status: an entry that is NOTHING_COMPARED has verified every
 * chunk, so it ends the wait like IN_SYNC (the report's outcome then says 5). A table whose run
 * noted no chunk needs no entry. A report topic that does not exist yet (no verifier started)
 * counts as an empty report. Progress is one line each time it changes. One caller; {@link #stop()}
 * from any thread.
 */
public final class RunWait {
  /** A table of the run: its run id and how many chunks the run noted of it in all. */
  public record NotedTable(String table, String runId, long chunks) {
    public NotedTable {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(runId, "runId");
      if (chunks < 0) {
        throw new IllegalArgumentException("chunks must not be negative, was " + chunks);
      }
    }
  }

  /** A target that has not verified every noted chunk of a table of the run. */
  public record Lag(String target, NotedTable table, Optional<ReportEntry> entry) {
    /** Chunks of the run verified on the target (0 without an entry of the run). */
    public long verified() {
      return entry
          .filter(e -> table.runId().equals(e.getRunId()))
          .map(ReportEntry::getApplyChunks)
          .orElse(0L);
    }

    @Override
    public String toString() {
      String name = target + "/" + table.table();
      if (entry.isEmpty()) {
        return name + " no entry of run " + table.runId();
      }
      if (!table.runId().equals(entry.get().getRunId())) {
        return name + " reports run " + entry.get().getRunId() + ", not " + table.runId();
      }
      return name + " " + verified() + " of " + table.chunks() + " chunks";
    }
  }

  /** How a wait ended: the entries last read, and the targets and tables still behind. */
  public record Result(Ending ending, List<ReportEntry> entries, List<Lag> behind) {
    public Result {
      entries = List.copyOf(entries);
      behind = List.copyOf(behind);
    }
  }

  /** Why a wait ended. */
  public enum Ending {
    /**
     * Every target verified every noted chunk, whatever it found (in sync, differences, or nothing
     * compared).
     */
    VERIFIED,
    /** A target reports RESYNC_NEEDED on a table of the run: it will not catch up. */
    RESYNC_NEEDED,
    TIMED_OUT,
    STOPPED
  }

  /** Reads the latest report entries. */
  @FunctionalInterface
  public interface EntrySource {
    List<ReportEntry> entries();
  }

  private final EntrySource source;
  private final String task;
  private final List<String> targets;
  private final List<NotedTable> tables;
  private final Duration poll;
  private final CountDownLatch stopped = new CountDownLatch(1);

  public RunWait(
      EntrySource source,
      String task,
      List<String> targets,
      List<NotedTable> tables,
      Duration poll) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("a wait needs at least one target");
    }
    this.source = source;
    this.task = task;
    this.targets = List.copyOf(targets);
    this.tables = List.copyOf(tables);
    this.poll = poll;
  }

  /** Ends a running {@link #await} at its next poll, with {@link Ending#STOPPED}. */
  public void stop() {
    stopped.countDown();
  }

  /**
   * Polls until the run is verified on every target, a target needs a resync, {@code timeout}
   * passed, or {@link #stop()}.
   *
   * @param progress told a line whenever the progress changed
   */
  public Result await(Duration timeout, Consumer<String> progress) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastProgress = null;
    List<ReportEntry> entries = List.of();
    while (true) {
      String missingTopic = null;
      try {
        entries = source.entries();
      } catch (ReportReader.MissingTopicException e) {
        missingTopic = e.topic();
      }
      List<Lag> behind = behind(entries);
      if (behind.isEmpty()) {
        return new Result(Ending.VERIFIED, entries, behind);
      }
      if (resyncNeeded(entries)) {
        return new Result(Ending.RESYNC_NEEDED, entries, behind);
      }
      String line =
          missingTopic != null
              ? "waiting for the report: topic " + missingTopic + " does not exist yet"
              : progressLine(behind);
      if (!line.equals(lastProgress)) {
        progress.accept(line);
        lastProgress = line;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return new Result(Ending.TIMED_OUT, entries, behind);
      }
      if (stopped.await(Math.min(left, poll.toNanos()), TimeUnit.NANOSECONDS)) {
        return new Result(Ending.STOPPED, entries, behind);
      }
    }
  }

  /** Every (target, table) of the run whose verified chunks have not reached its noted chunks. */
  public List<Lag> behind(List<ReportEntry> entries) {
    Map<String, ReportEntry> byKey = new HashMap<>();
    for (ReportEntry entry : entries) {
      if (task.equals(entry.getTask()) && entry.getTable() != null) {
        byKey.put(entry.getTarget() + "\u0000" + entry.getTable(), entry);
      }
    }
    List<Lag> behind = new ArrayList<>();
    for (String target : targets) {
      for (NotedTable table : tables) {
        if (table.chunks() == 0) {
          continue;
        }
        ReportEntry entry = byKey.get(target + "\u0000" + table.table());
        boolean verified =
            entry != null
                && table.runId().equals(entry.getRunId())
                && entry.getApplyChunks() >= table.chunks();
        if (!verified) {
          behind.add(new Lag(target, table, Optional.ofNullable(entry)));
        }
      }
    }
    return behind;
  }

  private boolean resyncNeeded(List<ReportEntry> entries) {
    return entries.stream()
        .anyMatch(
            e ->
                task.equals(e.getTask())
                    && targets.contains(e.getTarget())
                    && e.getStatus() == ReportStatus.RESYNC_NEEDED
                    && tables.stream()
                        .anyMatch(
                            t -> t.table().equals(e.getTable()) && t.runId().equals(e.getRunId())));
  }

  private String progressLine(List<Lag> behind) {
    long noted = 0;
    for (NotedTable table : tables) {
      noted += table.chunks() * targets.size();
    }
    long lagging = 0;
    for (Lag lag : behind) {
      lagging += lag.table().chunks() - Math.min(lag.verified(), lag.table().chunks());
    }
    return "waiting for the report: "
        + (noted - lagging)
        + " of "
        + noted
        + " chunk verdicts on "
        + String.join(", ", targets)
        + "; behind: "
        + describe(behind);
  }

  /** The lags, at most five named. */
  public static String describe(List<Lag> behind) {
    List<String> names = behind.stream().map(Lag::toString).toList();
    String shown = String.join(", ", names.subList(0, Math.min(5, names.size())));
    return names.size() > 5 ? shown + " and " + (names.size() - 5) + " more" : shown;
  }
}
