package io.cdccompare.demo;

import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.report.read.DifferenceKeys;
import io.cdccompare.report.read.ReportRow;
import io.cdccompare.report.read.ShownStatus;
import io.cdccompare.report.read.TargetReport;
import io.cdccompare.report.read.TaskReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demo's conclusion: whether the second compare found exactly what was injected — nothing on
 * target {@code a}, and on target {@code b} the changed customer as failed, the deleted order as
 * missed and the added customer as extra, by key — and whether the repair of {@code b} fixed
 * exactly those three keys; and the problems when not.
 *
 * @param problems what the report showed that the demo did not inject (empty when as expected)
 */
public record DemoResult(List<String> problems, long loadTransactions, String elapsed) {

  public boolean asExpected() {
    return problems.isEmpty();
  }

  static DemoResult of(
      List<TaskReport> report,
      Injection injected,
      RecheckOutcome repaired,
      long loadTransactions,
      String elapsed) {
    List<String> problems = new ArrayList<>();
    Set<String> fixed = new TreeSet<>();
    for (RecheckOutcome.TableOutcome t : repaired.tables()) {
      fixed.addAll(t.cleared());
      t.confirmed().forEach((key, kind) -> problems.add("repair: key " + key + " still " + kind));
      t.unverified().forEach(key -> problems.add("repair: key " + key + " unverified"));
      t.unsettled().forEach(key -> problems.add("repair: key " + key + " in flight"));
    }
    Set<String> wanted = Set.of(injected.failed(), injected.missed(), injected.extra());
    if (!fixed.equals(new TreeSet<>(wanted))) {
      problems.add("repair: repaired keys " + fixed + ", injected " + new TreeSet<>(wanted));
    }
    for (TaskReport task : report) {
      for (TargetReport target : task.targets()) {
        for (ReportRow row : target.tables()) {
          String table = row.table().orElse("?");
          String where = "target " + target.target() + " table " + table;
          if (row.status() != ShownStatus.IN_SYNC && row.status() != ShownStatus.DIFFERENCES) {
            problems.add(where + " is " + row.status());
          }
          boolean here = Demo.TARGET_B.equals(target.target());
          DifferenceKeys keys =
              row.keys()
                  .orElse(
                      new DifferenceKeys(
                          new DifferenceKeys.Keys(List.of(), 0),
                          new DifferenceKeys.Keys(List.of(), 0),
                          new DifferenceKeys.Keys(List.of(), 0)));
          boolean customers = table.equals("shop.customers");
          boolean orders = table.equals("shop.orders");
          expect(
              problems,
              where,
              "failed",
              keys.failed(),
              here && customers ? Set.of(injected.failed()) : Set.of());
          expect(
              problems,
              where,
              "missed",
              keys.missed(),
              here && orders ? Set.of(injected.missed()) : Set.of());
          expect(
              problems,
              where,
              "extra",
              keys.extra(),
              here && customers ? Set.of(injected.extra()) : Set.of());
        }
      }
    }
    return new DemoResult(List.copyOf(problems), loadTransactions, elapsed);
  }

  private static void expect(
      List<String> problems,
      String where,
      String kind,
      DifferenceKeys.Keys found,
      Set<String> wanted) {
    if (found.total() != wanted.size() || !new TreeSet<>(found.shown()).equals(wanted)) {
      problems.add(where + ": " + kind + " keys " + found.shown() + ", injected " + wanted);
    }
  }
}
