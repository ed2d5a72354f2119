package io.cdccompare.core.stream;

/**
 * The exit codes of cdc-compare, defined once. The command line returns them, and a report's
 * outcome has one ({@code ReportOutcome}). When several apply to a report, the worst wins: 4, then
 * 3, then 5. The README's "Exit codes" table is the users' description.
 */
public enum ExitCode {
  /** Ok; for {@code report} and {@code compare run --wait}: every target in sync. */
  OK(0, "ok; for report and compare run --wait: every target in sync"),

  /** A failure; one line names what failed. */
  FAILURE(1, "failure: one line on standard error names what failed"),

  /** A usage error or bad configuration (a missing file, an unknown or invalid key). */
  USAGE(2, "usage error or bad configuration: one line names the option, file or key"),

  /** {@code report}, {@code compare run --wait}: some target differs from the source. */
  DIFFERENCES(3, "some target differs from the source (failed, missed or extra rows)"),

  /**
   * {@code report}, {@code compare run --wait}: some chunk could not be checked, or a resync is
   * needed; {@code status}: a resync is needed.
   */
  UNVERIFIABLE(4, "some chunk could not be verified, or a resync is needed"),

  /**
   * {@code report}, {@code compare run --wait}: not every noted chunk is verified on every target
   * yet, or a verified table compared none of its rows (NOTHING_COMPARED).
   */
  INCOMPLETE(5, "nothing proven yet: not every noted chunk is verified, or a table compared none"),

  /** {@code compare run}: stopped by Ctrl-C before the end; the next run continues. */
  STOPPED(130, "stopped by Ctrl-C before the end");

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** Exit codes from the worst: a stop, then 4, 3, 5, a failure, a usage error, 0. */
  private static final java.util.List<Integer> WORST_FIRST =
      java.util.List.of(130, 4, 3, 5, 1, 2, 0);

  /**
   * The worse of two exit codes of outcomes that both apply (a report and a recheck): a stop, then
   * 4, then 3, then 5; a code not listed counts as a failure.
   */
  public static int worse(int a, int b) {
    return rank(b) < rank(a) ? b : a;
  }

  private static int rank(int code) {
    int rank = WORST_FIRST.indexOf(code);
    return rank < 0 ? WORST_FIRST.indexOf(1) : rank;
  }

  /** The process exit code. */
  public int code() {
    return code;
  }

  /** What the code means, one line. */
  public String meaning() {
    return meaning;
  }
}
