package io.cdccompare.core.recheck;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The run id of a recheck names the run it rechecks and its attempt: {@code <run>.recheck<n>}, so
 * every verdict of a recheck, wherever it is read, links back to the run whose keys it compares
 * again, and the attempts of one run stay apart. A repair's check of the keys it repaired is named
 * the same way: {@code <run>.repair<n>}, the {@code n}-th repair of that run.
 */
public final class RecheckRuns {
  private static final Pattern RECHECK = Pattern.compile("(.+)\\.recheck([1-9][0-9]*)");
  private static final Pattern REPAIR = Pattern.compile("(.+)\\.repair([1-9][0-9]*)");

  private RecheckRuns() {}

  /** The id of the {@code attempt}-th recheck (1-based) of run {@code rechecked}. */
  public static String runId(String rechecked, int attempt) {
    return numbered(rechecked, ".recheck", attempt);
  }

  /** The id of the {@code attempt}-th repair (1-based) of run {@code repaired}. */
  public static String repairRunId(String repaired, int attempt) {
    return numbered(repaired, ".repair", attempt);
  }

  /** The run a recheck run rechecks (the first run of a chain), empty for a run of another kind. */
  public static Optional<String> rechecked(String runId) {
    Matcher m = RECHECK.matcher(runId);
    if (!m.matches()) {
      return Optional.empty();
    }
    String base = m.group(1);
    return Optional.of(rechecked(base).orElse(base));
  }

  /** The attempt of a recheck run, 0 for a run of another kind. */
  public static int attempt(String runId) {
    Matcher m = RECHECK.matcher(runId);
    return m.matches() ? Integer.parseInt(m.group(2)) : 0;
  }

  /**
   * The full or incremental run at the root of a chain of rechecks and repairs ({@code
   * r.repair1.recheck2} → {@code r}); the run id itself for such a run.
   */
  public static String origin(String runId) {
    String base = rechecked(runId).orElse(runId);
    Optional<String> repaired = repaired(base);
    return repaired.isPresent() ? origin(repaired.get()) : base;
  }

  /** The run a repair run repaired, empty for a run of another kind. */
  public static Optional<String> repaired(String runId) {
    Matcher m = REPAIR.matcher(runId);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The number of a repair run of its run, 0 for a run of another kind. */
  public static int repairAttempt(String runId) {
    Matcher m = REPAIR.matcher(runId);
    return m.matches() ? Integer.parseInt(m.group(2)) : 0;
  }

  private static String numbered(String run, String suffix, int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException(
          "a " + suffix.substring(1) + " attempt counts from 1, was " + attempt);
    }
    return run + suffix + attempt;
  }
}
