package io.cdccompare.report.read;

import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.report.RowTotals;
import java.util.Objects;

/**
 * One recheck attempt of a run on one target and table, as its chunk results tell it
 * (docs/design.md, "Recheck"): what the attempt compared again and how each row ended. A recheck
 * compares only keys, so its rows are keys: matched ones are <b>cleared</b>, failed, missed and
 * extra ones are <b>confirmed</b> different in their class, in-flight ones still changed while the
 * attempt's chunk was open (on the last attempt: <b>unsettled</b>). Cleared keys are counted, not
 * named: the results name only the others. Immutable.
 *
 * @param attempt the attempt, from 1 ({@code RecheckRuns.attempt}, for a repair {@code
 *     RecheckRuns.repairAttempt})
 * @param runId the recheck run, {@code <run>.recheck<n>}, or the repair run, {@code
 *     <run>.repair<n>} (a recheck of a repair: {@code <run>.repair<n>.recheck<m>})
 * @param rows the rows of the attempt's verified chunks, each chunk and partition counted once
 * @param unverifiableChunks chunks of the attempt with a verdict that is not VERIFIED: their keys
 *     were not decided on this target
 * @param keys the failed, missed and extra keys (each kind distinct, sorted, cut at the maximum)
 * @param inFlight the in-flight keys, likewise
 */
public record RecheckAttempt(
    int attempt,
    String runId,
    RowTotals rows,
    long unverifiableChunks,
    DifferenceKeys keys,
    DifferenceKeys.Keys inFlight) {

  public RecheckAttempt {
    if (attempt < 1) {
      throw new IllegalArgumentException("a recheck attempt counts from 1, was " + attempt);
    }
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(rows, "rows");
    if (unverifiableChunks < 0) {
      throw new IllegalArgumentException(
          "unverifiableChunks must not be negative, was " + unverifiableChunks);
    }
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(inFlight, "inFlight");
  }

  /** {@code repair} for the check of a repair ({@code <run>.repair<n>}), else {@code recheck}. */
  public String kind() {
    return RecheckRuns.repaired(runId).isPresent() ? "repair" : "recheck";
  }
}
