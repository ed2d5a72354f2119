package io.cdccompare.systemtests.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a soak saw, whether it passed, and its table. */
public record SoakOutcome(
    SoakOptions options,
    long chaosMs,
    List<Fault.Injected> faults,
    List<SoakRun.Injection> injections,
    SoakVerdicts.Checked checked,
    Map<String, Set<String>> targetDiffs,
    Map<String, Integer> selfExits,
    List<String> exitReasons,
    int compareStarts,
    int comparesComplete,
    long loadTransactions,
    long loadErrors,
    List<String> leftProcesses,
    List<String> leftDirectories,
    long wallMs) {

  /** This outcome once the soak ended: what it left behind, and how long it took in all. */
  SoakOutcome finished(List<String> processes, List<String> directories, long ms) {
    return new SoakOutcome(
        options,
        chaosMs,
        faults,
        injections,
        checked,
        targetDiffs,
        selfExits,
        exitReasons,
        compareStarts,
        comparesComplete,
        loadTransactions,
        loadErrors,
        processes,
        directories,
        ms);
  }

  /** The keys where a target differs from the source outside the injected keys. */
  public List<String> unexpectedTargetDiffs() {
    List<String> unexpected = new ArrayList<>();
    targetDiffs.forEach(
        (targetTable, keys) -> {
          String[] parts = targetTable.split(" ");
          for (String key : keys) {
            boolean injected =
                injections.stream()
                    .anyMatch(
                        i ->
                            i.target().equals(parts[0])
                                && i.table().equals(parts[1])
                                && i.key().equals(key));
            if (!injected) {
              unexpected.add(targetTable + " " + key);
            }
          }
        });
    injections.forEach(
        i -> {
          if (!targetDiffs.get(i.target() + " " + i.table()).contains(i.key())) {
            unexpected.add("injected but not different: " + i.id());
          }
        });
    return unexpected;
  }

  /** Every guarantee of the soak held. */
  public boolean passed() {
    return problems().isEmpty();
  }

  /** The guarantees that did not hold, one line each. */
  public List<String> problems() {
    List<String> p = new ArrayList<>();
    SoakVerdicts.Checked c = checked;
    if (!c.notFound().isEmpty()) {
      p.add("injected differences the last compare did not report: " + c.notFound());
    }
    if (!c.falseDifferences().isEmpty()) {
      p.add("false differences: " + c.falseDifferences());
    }
    if (!c.conflictingVerdicts().isEmpty()) {
      p.add("chunks with two different verdicts: " + c.conflictingVerdicts());
    }
    if (!c.incomplete().isEmpty()) {
      p.add("completed runs without every verdict: " + c.incomplete());
    }
    if (!unexpectedTargetDiffs().isEmpty()) {
      p.add("targets differ from the source outside the injected keys: " + unexpectedTargetDiffs());
    }
    if (!leftProcesses.isEmpty()) {
      p.add("processes left: " + leftProcesses);
    }
    if (!leftDirectories.isEmpty()) {
      p.add("directories left: " + leftDirectories);
    }
    return p;
  }

  /** The soak's table, as printed at its end. */
  public String table() {
    StringBuilder t = new StringBuilder();
    SoakVerdicts.Checked c = checked;
    t.append(
        String.format(
            "soak: %.1f min of chaos (%.1f min in all), seed %d, %d rows per table, fault every ~%d s%n",
            chaosMs / 60000.0,
            wallMs / 60000.0,
            options.seed(),
            options.rowsPerTable(),
            options.faultEvery().toSeconds()));
    t.append(
        String.format("| %-22s | %5s | %-26s |%n", "fault", "count", "longest verdict delay (s)"));
    t.append("|------------------------|-------|----------------------------|\n");
    for (Fault f : Fault.values()) {
      Long delay = c.longestDelayMs().get(f);
      String d =
          c.neverFollowedByVerdicts().contains(f)
              ? "NONE after one of them"
              : delay == null ? "-" : String.format("%.1f", delay / 1000.0);
      t.append(
          String.format(
              "| %-22s | %5d | %-26s |%n", f.label, c.faultsByKind().getOrDefault(f, 0), d));
    }
    t.append(String.format("| %-22s | %5d |%n", "faults in all", faults.size()));
    t.append(
        String.format(
            "compares: %d started, %d complete (%d complete table runs incl. resumed), programs that"
                + " died by themselves and were restarted: %s%n",
            compareStarts,
            comparesComplete,
            c.runsComplete(),
            selfExits.isEmpty() ? "none" : selfExits));
    exitReasons.stream()
        .limit(8)
        .forEach(
            r -> t.append("  last error before a program died by itself: ").append(r).append('\n'));
    t.append(
        String.format(
            "chunks verified (chunk x partition x target): %d; repeated result records: %d;"
                + " verdicts other than VERIFIED: %s; in-flight rows: %d%n",
            c.chunksVerified(), c.repeatedRecords(), c.otherStates(), c.inFlightRows()));
    t.append(
        String.format(
            "differences: expected %d, found %d (last compare), false %d (all compares)%n",
            c.expected(), c.found(), c.falseDifferences().size()));
    t.append(
        String.format(
            "live load: %d transactions (%d failed and retried: source restarts); targets equal to"
                + " the source outside the injected keys: %s; processes left: %d; directories left:"
                + " %d%n",
            loadTransactions,
            loadErrors,
            unexpectedTargetDiffs().isEmpty() ? "yes" : "NO",
            leftProcesses.size(),
            leftDirectories.size()));
    t.append(passed() ? "PASSED\n" : "FAILED:\n  " + String.join("\n  ", problems()) + "\n");
    return t.toString();
  }
}
