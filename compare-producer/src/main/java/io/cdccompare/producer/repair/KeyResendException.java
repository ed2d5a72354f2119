package io.cdccompare.producer.repair;

import io.cdccompare.core.table.TableName;

/**
 * A key re-send that did not end with Debezium's {@code COMPLETED} notice of its signal. The
 * message names the table, the signal id and what to do; {@link #reason()} says which of the four
 * endings it was.
 */
public final class KeyResendException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How a re-send failed. */
  public enum Reason {
    /** The capture reported the snapshot stopped ({@code ABORTED}). */
    ABORTED,
    /** The capture finished the snapshot but could not read the table (status named). */
    FAILED,
    /** No end was reported within the timeout; the snapshot may still complete. */
    TIMED_OUT,
    /**
     * The snapshot completed, but a window opened without its fence because writers held the table
     * past the fence wait: a re-sent row may be older than a change before it on the topic.
     */
    UNFENCED
  }

  private final Reason reason;
  private final TableName table;
  private final String signalId;

  /**
   * @param what what happened to the signal, after {@code table <table>: re-send signal <id> }
   */
  KeyResendException(Reason reason, TableName table, String signalId, String what) {
    super("table " + table + ": re-send signal " + signalId + " " + what);
    this.reason = reason;
    this.table = table;
    this.signalId = signalId;
  }

  public Reason reason() {
    return reason;
  }

  public TableName table() {
    return table;
  }

  public String signalId() {
    return signalId;
  }
}
