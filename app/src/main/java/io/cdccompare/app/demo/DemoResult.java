package io.cdccompare.app.demo;

import io.cdccompare.producer.compare.CompareRun;
import io.cdccompare.schemas.avro.ReportEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demo's conclusion: whether the second compare found exactly what was injected — nothing on
 * target {@code a}, and on target {@code b} the changed customer as failed, the deleted order as
 * missed and the added customer as extra, by key — and the problems when it did not.
 *
 * @param problems what the report showed that the demo did not inject (empty when as expected)
 */
public record DemoResult(List<String> problems, long loadTransactions, String elapsed) {

  public boolean asExpected() {
    return problems.isEmpty();
  }

  static DemoResult of(
      DemoReport report, Demo.Injection injected, long loadTransactions, String elapsed) {
    List<String> problems = new ArrayList<>();
    for (String target : report.targetNames()) {
      for (CompareRun.TableDone table : report.tables()) {
        ReportEntry entry = report.entry(target, table);
        String where = "target " + target + " table " + table.table();
        if (entry.getUnverifiableChunks() > 0 || entry.getSchemaDriftChunks() > 0) {
          problems.add(where + " has chunks that could not be verified: " + entry.getStatus());
        }
        boolean injectedHere = Demo.TARGET_B.equals(target);
        String name = table.table().table();
        expect(
            problems,
            where,
            "failed",
            report.keys(target, table, "failed"),
            injectedHere && name.equals("customers") ? Set.of(injected.failed()) : Set.of());
        expect(
            problems,
            where,
            "missed",
            report.keys(target, table, "missed"),
            injectedHere && name.equals("orders") ? Set.of(injected.missed()) : Set.of());
        expect(
            problems,
            where,
            "extra",
            report.keys(target, table, "extra"),
            injectedHere && name.equals("customers") ? Set.of(injected.extra()) : Set.of());
      }
    }
    return new DemoResult(List.copyOf(problems), loadTransactions, elapsed);
  }

  private static void expect(
      List<String> problems, String where, String kind, Set<String> found, Set<String> wanted) {
    if (!found.equals(new TreeSet<>(wanted))) {
      problems.add(where + ": " + kind + " keys " + found + ", injected " + wanted);
    }
  }
}
