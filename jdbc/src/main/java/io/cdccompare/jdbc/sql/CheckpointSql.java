package io.cdccompare.jdbc.sql;

import java.util.List;

/**
 * The statements of the checkpoint table {@code cdc_compare_checkpoints}: one row per (application,
 * topic, partition) holding the offset of the last record applied to this target, the source
 * position of that record and when it was written. Built apart from running them; immutable.
 *
 * <pre>
 * application varchar(200)  ┐
 * topic       varchar(249)  ├ primary key
 * partition   int           ┘
 * offset      bigint        last applied offset (inclusive)
 * commit_lsn  bigint null   source position of that record, when it has one
 * lsn         bigint null
 * updated_at  timestamp (UTC, µs)
 * </pre>
 */
public final class CheckpointSql extends BookkeepingSql {

  public static final String TABLE = "cdc_compare_checkpoints";

  /** The columns in the order of {@link #upsert()}'s parameters. */
  public static final List<ColumnDefinition> COLUMNS =
      List.of(
          ColumnDefinition.text("application", 200),
          ColumnDefinition.text("topic", 249),
          ColumnDefinition.required("partition", StoredType.INTEGER),
          ColumnDefinition.required("offset", StoredType.BIGINT),
          ColumnDefinition.optional("commit_lsn", StoredType.BIGINT),
          ColumnDefinition.optional("lsn", StoredType.BIGINT),
          ColumnDefinition.required("updated_at", StoredType.TIMESTAMP_UTC));

  public static final List<String> PRIMARY_KEY = List.of("application", "topic", "partition");

  /**
   * @param schema the schema (PostgreSQL) or database (MariaDB) holding the table; {@code null} for
   *     the connection's current one
   */
  public CheckpointSql(Dialect dialect, String schema) {
    super(dialect, schema, TABLE, COLUMNS, PRIMARY_KEY);
  }

  /**
   * {@code offset, commit_lsn, lsn, updated_at} of one (application, topic, partition), bound in
   * that order; with {@code lock}, the row is locked until the transaction ends ({@code FOR
   * UPDATE}), so two appliers of one partition cannot both move it.
   */
  public String select(boolean lock) {
    return selectByKey(COLUMNS.subList(3, COLUMNS.size())) + (lock ? " FOR UPDATE" : "");
  }

  /** Writes one checkpoint, every column of {@link #COLUMNS} bound in order. */
  public String upsert() {
    return dialect.upsertSql(table(), columnNames(), columnParameters(), PRIMARY_KEY);
  }
}
