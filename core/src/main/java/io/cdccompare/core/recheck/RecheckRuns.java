package io.cdccompare.core.recheck;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The run id of a recheck names the run it rechecks and its attempt: {@code <run>.recheck<n>}, so
 * every verdict of a recheck, wherever it is read, links back to the run whose keys it compares
 * again, and the attempts of one run stay apart.
 */
public final class RecheckRuns {
  private static final Pattern RECHECK = Pattern.compile("(.+)\\.recheck([1-9][0-9]*)");

  private RecheckRuns() {}

  /** The id of the {@code attempt}-th recheck (1-based) of run {@code rechecked}. */
  public static String runId(String rechecked, int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("a recheck attempt counts from 1, was " + attempt);
    }
    return rechecked + ".recheck" + attempt;
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
}
