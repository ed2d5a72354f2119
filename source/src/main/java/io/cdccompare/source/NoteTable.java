package io.cdccompare.source;

import io.cdccompare.core.table.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The layout of {@code repi.validatetables}, the table whose updates are the compare notes. One row
 * per (task, source table); the compare producer updates it twice per chunk (OPEN before the read,
 * CLOSE after the hash records are durable), and the capture turns each update into markers in
 * every partition of the noted table's topic. It and {@link SignalTable} are the {@code repi}
 * tables in the publication; {@code repi.capturetopics} records each table topic's partition count.
 */
public final class NoteTable {
  public static final TableName NAME = new TableName("repi", "validatetables");

  /** The compare tasks' positions ({@link #POSITIONS_DDL}). */
  public static final TableName POSITIONS = new TableName("repi", "comparetables");

  /** Columns, in order; every one is documented in docs/commands.md's capture section. */
  public static final String DDL =
      """
      CREATE TABLE IF NOT EXISTS repi.validatetables (
        task               text        NOT NULL,
        table_schema       text        NOT NULL,
        table_name         text        NOT NULL,
        run_id             text        NOT NULL,
        kind               text        NOT NULL DEFAULT 'FULL'
                           CHECK (kind IN ('FULL', 'INCREMENTAL', 'REPAIR', 'RECHECK')),
        chunk              bigint      NOT NULL,
        phase              text        NOT NULL CHECK (phase IN ('OPEN', 'CLOSE')),
        deep               integer     NOT NULL DEFAULT 10 CHECK (deep BETWEEN 1 AND 100),
        first_key          text,
        last_key           text,
        chunk_rows         integer,
        compared_rows      integer,
        hashes_topic       text,
        hash_locations     text,
        column_fingerprint text,
        compared_shape     text,
        saved_position     text,
        range_lower        text,
        range_lower_incl   boolean,
        range_upper        text,
        slice              integer     NOT NULL DEFAULT 0,
        slices             integer     NOT NULL DEFAULT 1,
        noted_at           timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (task, table_schema, table_name)
      )""";

  /**
   * Adds the columns a note table created by an earlier version lacks. The compared key range of a
   * CLOSE ({@code core ComparedRange}) is {@code range_lower}, {@code range_lower_incl} and {@code
   * range_upper}: a chunk compares a range exactly when {@code range_lower_incl} is not null, and a
   * null bound there is an open end.
   */
  public static final String UPGRADE =
      """
      ALTER TABLE repi.validatetables
        ADD COLUMN IF NOT EXISTS compared_shape text,
        ADD COLUMN IF NOT EXISTS range_lower text,
        ADD COLUMN IF NOT EXISTS range_lower_incl boolean,
        ADD COLUMN IF NOT EXISTS range_upper text,
        ADD COLUMN IF NOT EXISTS slice integer NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS slices integer NOT NULL DEFAULT 1""";

  /**
   * The compare tasks' positions, one row per (task, table): never published, so updating it makes
   * no marker. {@code task_run_id} is the run of the whole task, {@code run_id} the table's run (a
   * table restarted inside a resumed task run gets a new one); {@code saved_position} is the last
   * key of the last closed chunk and {@code next_chunk} the number the next chunk gets. {@code
   * runs_started} counts the table's runs in this task, the run in progress included (it picks the
   * slice a rotating task compares), and {@code tail_closed} says that the table's last chunk (the
   * one open above) is closed, so a resumed run adds no chunk after it. {@code start_offsets} are
   * the table topic's end offsets when the table's full run started, and {@code completed_offsets}
   * those of the table's last completed run (full or incremental), where the next incremental run
   * starts reading; both in core {@code TopicOffsets}' text, null when unknown.
   */
  public static final String POSITIONS_DDL =
      """
      CREATE TABLE IF NOT EXISTS repi.comparetables (
        task               text        NOT NULL,
        table_schema       text        NOT NULL,
        table_name         text        NOT NULL,
        task_run_id        text        NOT NULL,
        run_id             text        NOT NULL,
        kind               text        NOT NULL DEFAULT 'FULL',
        state              text        NOT NULL CHECK (state IN ('PENDING', 'RUNNING', 'DONE')),
        column_fingerprint text,
        next_chunk         bigint      NOT NULL DEFAULT 0,
        saved_position     text,
        chunks_done        bigint      NOT NULL DEFAULT 0,
        rows_read          bigint      NOT NULL DEFAULT 0,
        rows_compared      bigint      NOT NULL DEFAULT 0,
        runs_started       bigint      NOT NULL DEFAULT 0,
        tail_closed        boolean     NOT NULL DEFAULT false,
        start_offsets      text,
        completed_offsets  text,
        started_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        finished_at        timestamptz,
        PRIMARY KEY (task, table_schema, table_name)
      )""";

  /** Adds the columns a positions table created by an earlier version lacks. */
  public static final String POSITIONS_UPGRADE =
      """
      ALTER TABLE repi.comparetables
        ADD COLUMN IF NOT EXISTS runs_started bigint NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS tail_closed boolean NOT NULL DEFAULT false,
        ADD COLUMN IF NOT EXISTS start_offsets text,
        ADD COLUMN IF NOT EXISTS completed_offsets text""";

  public static final String TOPICS_DDL =
      """
      CREATE TABLE IF NOT EXISTS repi.capturetopics (
        topic       text        PRIMARY KEY,
        partitions  integer     NOT NULL CHECK (partitions > 0),
        recorded_at timestamptz NOT NULL DEFAULT now()
      )""";

  /**
   * Creates the {@code repi} schema, the note table and the positions table when missing, and adds
   * the columns an earlier version lacked, in one committed transaction on {@code connection}
   * (whose autocommit is restored).
   */
  public static void create(Connection connection) throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS repi");
      s.execute(DDL);
      s.execute(UPGRADE);
      s.execute(TOPICS_DDL);
      s.execute(POSITIONS_DDL);
      s.execute(POSITIONS_UPGRADE);
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  private NoteTable() {}
}
