package io.cdccompare.core.stream;

/**
 * The Kafka headers the capture puts on every change record of a table topic, defined once for the
 * capture that writes them and the verifiers and incremental runs that read them. A marker record
 * carries {@code io.cdccompare.core.note.Note#MARKER_HEADER} instead of an op.
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

  private ChangeHeaders() {}
}
