package io.cdccompare.operations.repair;

import io.cdccompare.operations.recheck.RecheckOutcome;
import io.cdccompare.operations.recheck.RecheckOutcome.TableOutcome;
import io.cdccompare.producer.compare.RepairRun.Differences;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What {@code compare repair --wait} prints of its check: per table, for each class of difference
 * the run had (failed, missed, and extra with {@code --delete-extra}), how many keys are repaired
 * (the check found them equal to the source), then one line per key that is not: still different
 * (with the class the check found), in flight (changed while checked: rechecked next), or
 * unverified.
 */
final class RepairReport {
  private RepairReport() {}

  static void print(
      RecheckOutcome outcome, List<Differences> differences, boolean deleteExtra, PrintWriter out) {
    for (TableOutcome t : outcome.tables()) {
      Differences d =
          differences.stream()
              .filter(x -> x.table().toString().equals(t.table()))
              .findFirst()
              .orElseThrow();
      out.printf(
          "%s %s: repaired=%d still_different=%d in_flight=%d unverified=%d%n",
          t.target(),
          t.table(),
          t.cleared().size(),
          t.confirmed().size(),
          t.unsettled().size(),
          t.unverified().size());
      line("failed", d.failed(), t.cleared(), out);
      line("missed", d.missed(), t.cleared(), out);
      if (deleteExtra) {
        line("extra", d.extra(), t.cleared(), out);
      }
      t.confirmed()
          .forEach(
              (key, found) ->
                  out.printf("  %s (was %s) still different: %s%n", key, d.classOf(key), found));
      t.unsettled().forEach(key -> out.printf("  %s (was %s) in flight%n", key, d.classOf(key)));
      t.unverified().forEach(key -> out.printf("  %s (was %s) unverified%n", key, d.classOf(key)));
    }
    out.flush();
  }

  private static void line(
      String kind, Collection<String> keys, Set<String> repaired, PrintWriter out) {
    if (!keys.isEmpty()) {
      long fixed = keys.stream().filter(repaired::contains).count();
      out.printf("  %s: %d of %d repaired%n", kind, fixed, keys.size());
    }
  }
}
