package io.cdccompare.core.stream;

/**
 * The Kafka headers the capture puts on every change record of a table topic, defined once for the
 * capture that writes them and the verifiers and incremental runs that read them. A marker record
 * carries {@code io.cdccompare.core.note.Note#MARKER_HEADER} instead of an op.
 *
 * <p>A row re-sent on request (Debezium's incremental snapshot started by a signal, op {@code r})
 * also carries {@link #RESEND}; a row of the capture's initial snapshot does not.
 */
public final class ChangeHeaders {
  /** The change's own LSN on the source. */
  public static final String LSN = "cdc.lsn";

  /** The LSN of the commit of the change's transaction. */
  public static final String COMMIT_LSN = "cdc.lsn.commit";

  /** The source transaction id. */
  public static final String TXID = "cdc.txid";

  /** Debezium's op of the change: {@code c}, {@code u}, {@code d} or {@code r} (snapshot read). */
  public static final String OP = "cdc.op";

  /**
   * Present, with the value {@code 1}, on a row the capture re-sent on request (an incremental
   * snapshot read between watermarks): the key was asked for again, not lost to a new snapshot.
   */
  public static final String RESEND = "cdc.resend";

  private ChangeHeaders() {}
}
