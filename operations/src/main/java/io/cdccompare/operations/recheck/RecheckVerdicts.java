package io.cdccompare.operations.recheck;

import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.schemas.avro.ChunkResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The keys of a run's verdicts as a recheck plans from them: per (target, table), the union of the
 * failed, missed, extra and in-flight keys over every chunk and partition of the run (a re-emitted
 * verdict adds nothing).
 */
public final class RecheckVerdicts {
  private RecheckVerdicts() {}

  private record Id(String target, String table) {}

  private record Keys(
      Set<String> failed, Set<String> missed, Set<String> extra, Set<String> inFlight) {
    Keys() {
      this(
          new LinkedHashSet<>(),
          new LinkedHashSet<>(),
          new LinkedHashSet<>(),
          new LinkedHashSet<>());
    }
  }

  /** The verdicts of the results of run {@code runId}; results of other runs are left out. */
  public static List<RecheckPlan.Verdict> of(Collection<ChunkResult> results, String runId) {
    Map<Id, Keys> byId =
        new TreeMap<>(java.util.Comparator.comparing(Id::target).thenComparing(Id::table));
    for (ChunkResult r : results) {
      if (!r.getRunId().equals(runId)) {
        continue;
      }
      Keys keys = byId.computeIfAbsent(new Id(r.getTarget(), r.getTable()), id -> new Keys());
      keys.failed().addAll(r.getFailedKeys());
      keys.missed().addAll(r.getMissedKeys());
      keys.extra().addAll(r.getExtraKeys());
      keys.inFlight().addAll(r.getInFlightKeys());
    }
    List<RecheckPlan.Verdict> out = new ArrayList<>();
    byId.forEach(
        (id, keys) ->
            out.add(
                new RecheckPlan.Verdict(
                    id.target(),
                    id.table(),
                    keys.failed(),
                    keys.missed(),
                    keys.extra(),
                    keys.inFlight())));
    return out;
  }
}
