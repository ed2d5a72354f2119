package io.cdccompare.demo;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.table.TableName;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.RepairRun;
import io.cdccompare.producer.compare.RepairRun.Differences;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.report.read.DifferenceKeys;
import io.cdccompare.report.read.ReportRow;
import io.cdccompare.report.read.TargetReport;
import io.cdccompare.report.read.TaskReport;
import io.cdccompare.schemas.avro.ChunkResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * The demo's repair of one target, as {@code compare repair --delete-extra --wait} does it: the
 * target's differences that the report shows are repaired through the stream ({@link RepairRun}),
 * then the repair's check is awaited on that target and its outcome returned.
 */
final class DemoRepair {
  private DemoRepair() {}

  /**
   * @param found the report of the compare whose differences are repaired, with their keys
   * @param stopped true once the demo is stopped: the wait ends
   */
  static RecheckOutcome repair(
      TargetsConfig targets,
      CompareConfig task,
      String target,
      List<TaskReport> found,
      Duration timeout,
      BooleanSupplier stopped)
      throws Exception {
    List<Differences> differences = new ArrayList<>();
    String run = null;
    for (TaskReport report : found) {
      for (TargetReport t : report.targets()) {
        if (!t.target().equals(target)) {
          continue;
        }
        for (ReportRow row : t.tables()) {
          if (row.keys().isEmpty() || !row.hasDifferences()) {
            continue;
          }
          DifferenceKeys keys = row.keys().get();
          run = row.runId().orElseThrow();
          differences.add(
              new Differences(
                  TableName.parse(row.table().orElseThrow()),
                  new TreeSet<>(keys.failed().shown()),
                  new TreeSet<>(keys.missed().shown()),
                  new TreeSet<>(keys.extra().shown())));
        }
      }
    }
    if (run == null) {
      throw new IllegalStateException("target " + target + " shows no difference to repair");
    }
    String runId = RecheckRuns.repairRunId(run, 1);
    RepairRun repair =
        new RepairRun(
            task, target, runId, true, differences, RepairRun.throughCapture(task, timeout));
    RepairRun.Summary summary = repair.run(targets.verifierSettings(target).applicationId());
    if (!summary.check().complete()) {
      throw new IllegalStateException("the repair was stopped");
    }
    Map<String, List<KeyList>> chunks = new LinkedHashMap<>();
    repair.checkChunks().forEach((table, lists) -> chunks.put(table.toString(), lists));
    ReportReader reader = targets.reportReader(Duration.ofSeconds(30));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!stopped.getAsBoolean()) {
      List<ChunkResult> results = reader.results(r -> r.getRunId().equals(runId));
      if (RecheckOutcome.complete(chunks, results, runId, List.of(target))) {
        return RecheckOutcome.of(chunks, results, runId);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "target " + target + " did not verify repair run " + runId + " within " + timeout);
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the demo was stopped");
  }

  /** One line: per table, the keys repaired and those that are not. */
  static String headline(RecheckOutcome outcome) {
    StringBuilder line = new StringBuilder();
    for (RecheckOutcome.TableOutcome t : outcome.tables()) {
      if (line.length() > 0) {
        line.append("; ");
      }
      line.append(
          String.format(
              java.util.Locale.ROOT,
              "%s %s: %d repaired %s, %d still different, %d in flight",
              t.target(),
              t.table(),
              t.cleared().size(),
              t.cleared(),
              t.confirmed().size(),
              t.unsettled().size()));
    }
    return line.toString();
  }
}
