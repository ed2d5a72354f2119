package io.cdccompare.core.stream;

/**
 * Where a change came from in the source's log: the commit LSN of its transaction, its own LSN and
 * the transaction id. Ordered by (commit LSN, event LSN): a change at or below an apply's
 * checkpoint was applied already (the replicate-side "last commit" rule), so a duplicate re-sent by
 * the capture after a crash is recognised and skipped.
 */
public record SourcePosition(long commitLsn, long lsn, long txId)
    implements Comparable<SourcePosition> {

  public SourcePosition {
    if (commitLsn < 0 || lsn < 0) {
      throw new IllegalArgumentException(
          "LSNs are never negative: commitLsn=" + commitLsn + ", lsn=" + lsn);
    }
  }

  @Override
  public int compareTo(SourcePosition other) {
    int byCommit = Long.compareUnsigned(commitLsn, other.commitLsn);
    return byCommit != 0 ? byCommit : Long.compareUnsigned(lsn, other.lsn);
  }

  /** PostgreSQL's text form of an LSN, {@code 16/B374D848}. */
  public static String lsnText(long lsn) {
    return Long.toHexString(lsn >>> 32).toUpperCase()
        + "/"
        + Long.toHexString(lsn & 0xffffffffL).toUpperCase();
  }

  /** Parses PostgreSQL's text form of an LSN. */
  public static long parseLsn(String text) {
    int slash = text.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("not an LSN: '" + text + "'");
    }
    return (Long.parseLong(text.substring(0, slash), 16) << 32)
        | Long.parseLong(text.substring(slash + 1), 16);
  }
}
