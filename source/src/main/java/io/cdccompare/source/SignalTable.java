package io.cdccompare.source;

import io.cdccompare.core.table.TableName;

/**
 * The layout of {@code repi.signals}, Debezium's signal table (its {@code source} signal channel):
 * a row inserted there is read by the capture from the write-ahead log and executed, in commit
 * order with the changes around it. The key re-send inserts {@code execute-snapshot} signals; the
 * capture's incremental snapshot itself inserts its open and close watermarks. The capture never
 * forwards the table's rows to a topic.
 *
 * <p>The columns are the three Debezium reads, in its order: {@code id} (the signal id, which the
 * snapshot's notices carry), {@code type} and {@code data} (JSON). {@code data} is {@code text},
 * not Debezium's documented {@code varchar(2048)}: Debezium reads the three columns as strings
 * whatever their length, and a re-send of many keys writes a long filter. The table lives in the
 * publication next to the note table; the capture's database user must be allowed to insert into
 * it.
 */
public final class SignalTable {
  public static final TableName NAME = new TableName("repi", "signals");

  /** The longest signal id Debezium's documented layout allows. */
  public static final int MAX_ID_LENGTH = 42;

  public static final String DDL =
      """
      CREATE TABLE IF NOT EXISTS repi.signals (
        id   varchar(42) PRIMARY KEY,
        type varchar(32) NOT NULL,
        data text
      )""";

  /** The statement that sends one signal: id, type and data as parameters. */
  public static final String INSERT = "INSERT INTO repi.signals (id, type, data) VALUES (?, ?, ?)";

  /** Debezium's {@code signal.data.collection} for PostgreSQL: {@code <schema>.<table>}. */
  public static final String DATA_COLLECTION = NAME.schema() + "." + NAME.table();

  private SignalTable() {}
}
