package io.cdccompare.producer.compare;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.table.TableName;

/**
 * An incremental run cannot read every change since the table's last completed run: its table topic
 * was recreated, has another partition count, is compacted, lost older records (retention, deleted
 * records) or holds a new snapshot of the capture. A {@link ErrorCode#RESYNC_NEEDED} error (exit
 * code 4 in the CLI): a full run of the table is needed. It is thrown before the run writes any
 * note, so nothing was compared in part. The message reads {@code RESYNC_NEEDED: table <table>,
 * topic <topic>: <why, with partitions and offsets>: run a full compare}.
 */
public final class IncrementalRangeLostException extends CdcCompareException {
  private static final long serialVersionUID = 1L;

  private final transient TableName table;
  private final String topic;

  IncrementalRangeLostException(TableName table, String topic, String why) {
    super(
        ErrorCode.RESYNC_NEEDED,
        "table " + table + ", topic " + topic + ": " + why + ": run a full compare");
    this.table = table;
    this.topic = topic;
  }

  /** The table whose changes cannot all be read. */
  public TableName table() {
    return table;
  }

  /** Its table topic. */
  public String topic() {
    return topic;
  }
}
