package io.cdccompare.jdbc.sql;

import java.util.List;

/**
 * The statements of the verdict table {@code cdc_compare_verdicts}: one row per (application, task,
 * run, table, chunk, partition of the table topic), written in the transaction that moves the
 * checkpoint past the chunk's CLOSE marker and read back when that marker is replayed. Built apart
 * from running them; immutable.
 *
 * <pre>
 * application      varchar(200)  ┐
 * task             varchar(128)  │
 * run_id           varchar(100)  ├ primary key
 * table_name       varchar(300)  │
 * chunk            bigint        │
 * table_partition  int           ┘
 * marker_offset    bigint        offset of the CLOSE marker in that partition
 * state            varchar(16)   VERIFIED / UNVERIFIABLE / SCHEMA_DRIFT / STALLED
 * matched, failed, missed, extra, in_flight   bigint
 * failed_keys, missed_keys, extra_keys, in_flight_keys   text: JSON array of encoded keys, sorted
 * error            text null     why a chunk is not VERIFIED
 * verified_at      timestamp (UTC, µs)
 * </pre>
 *
 * On MariaDB the primary key stays under InnoDB's 3072-byte limit in {@code utf8mb4}.
 */
public final class VerdictSql extends BookkeepingSql {

  public static final String TABLE = "cdc_compare_verdicts";

  /** The columns in the order of {@link #insert()}'s parameters and {@link #select()}'s result. */
  public static final List<ColumnDefinition> COLUMNS =
      List.of(
          ColumnDefinition.text("application", 200),
          ColumnDefinition.text("task", 128),
          ColumnDefinition.text("run_id", 100),
          ColumnDefinition.text("table_name", 300),
          ColumnDefinition.required("chunk", StoredType.BIGINT),
          ColumnDefinition.required("table_partition", StoredType.INTEGER),
          ColumnDefinition.required("marker_offset", StoredType.BIGINT),
          ColumnDefinition.text("state", 16),
          ColumnDefinition.required("matched", StoredType.BIGINT),
          ColumnDefinition.required("failed", StoredType.BIGINT),
          ColumnDefinition.required("missed", StoredType.BIGINT),
          ColumnDefinition.required("extra", StoredType.BIGINT),
          ColumnDefinition.required("in_flight", StoredType.BIGINT),
          ColumnDefinition.required("failed_keys", StoredType.LONG_TEXT),
          ColumnDefinition.required("missed_keys", StoredType.LONG_TEXT),
          ColumnDefinition.required("extra_keys", StoredType.LONG_TEXT),
          ColumnDefinition.required("in_flight_keys", StoredType.LONG_TEXT),
          ColumnDefinition.optional("error", StoredType.LONG_TEXT),
          ColumnDefinition.required("verified_at", StoredType.TIMESTAMP_UTC));

  public static final List<String> PRIMARY_KEY =
      List.of("application", "task", "run_id", "table_name", "chunk", "table_partition");

  /**
   * @param schema the schema (PostgreSQL) or database (MariaDB) holding the table; {@code null} for
   *     the connection's current one
   */
  public VerdictSql(Dialect dialect, String schema) {
    super(dialect, schema, TABLE, COLUMNS, PRIMARY_KEY);
  }

  /** Inserts one verdict, every column of {@link #COLUMNS} bound in order. */
  public String insert() {
    return dialect.insertSql(table(), columnNames(), columnParameters());
  }

  /** Every column of one verdict, its primary key bound in order. */
  public String select() {
    return selectByKey(COLUMNS);
  }
}
