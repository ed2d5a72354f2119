package io.cdccompare.source;

/**
 * The statements on {@code repi.comparetables} ({@link NoteTable#POSITIONS_DDL}), the compare
 * tasks' positions, apart from their execution. Every statement that names one table's row ends
 * with {@link #WHERE_TABLE}: its last three parameters are the task, the table's schema and name.
 */
public final class PositionSql {

  /** The row of one (task, table). */
  public static final String WHERE_TABLE =
      " WHERE task = ? AND table_schema = ? AND table_name = ?";

  /** A task's positions: one row per table, the columns in {@code TaskPositions}' order. */
  public static final String LOAD =
      "SELECT table_schema, table_name, task_run_id, run_id, state, column_fingerprint,"
          + " next_chunk, saved_position, chunks_done, rows_read, rows_compared,"
          + " runs_started, tail_closed, start_offsets, completed_offsets"
          + " FROM "
          + NoteTable.POSITIONS
          + " WHERE task = ?";

  /**
   * A table's run starts: PENDING under the new run ids, its position cleared, one more run
   * counted. Parameters: task, schema, table, task run id, table run id, kind.
   */
  public static final String RESET =
      "INSERT INTO "
          + NoteTable.POSITIONS
          + " AS p (task, table_schema, table_name, task_run_id,"
          + " run_id, kind, state, runs_started) VALUES (?, ?, ?, ?, ?, ?, 'PENDING', 1)"
          + " ON CONFLICT (task, table_schema, table_name) DO UPDATE SET"
          + " task_run_id = excluded.task_run_id, run_id = excluded.run_id,"
          + " kind = excluded.kind, state = 'PENDING', column_fingerprint = NULL,"
          + " next_chunk = 0, saved_position = NULL, chunks_done = 0, rows_read = 0,"
          + " rows_compared = 0, runs_started = p.runs_started + 1, tail_closed = false,"
          + " start_offsets = NULL,"
          + " started_at = now(), updated_at = now(), finished_at = NULL";

  /** A chunk of the table opened: RUNNING with the chunk's column fingerprint (one parameter). */
  public static final String RUNNING = update("state = 'RUNNING', column_fingerprint = ?");

  /**
   * A chunk of the table closed: parameters the next chunk's number, the saved position, rows read
   * and compared, and whether the table's tail is closed.
   */
  public static final String ADVANCE =
      update(
          "next_chunk = ?, saved_position = ?, chunks_done = chunks_done + 1,"
              + " rows_read = rows_read + ?, rows_compared = rows_compared + ?, tail_closed = ?");

  /** The table topic's offsets when the table's full run started (one parameter). */
  public static final String RECORD_START = update("start_offsets = ?");

  /**
   * The table's run is done; its start offsets become its completed offsets (kept as they were when
   * the run recorded none: a run of an earlier version).
   */
  public static final String FINISH =
      update(
          "state = 'DONE', finished_at = now(),"
              + " completed_offsets = coalesce(start_offsets, completed_offsets)");

  /** The offsets where the table's last completed (incremental) run started (one parameter). */
  public static final String COMPLETE = update("completed_offsets = ?");

  /**
   * Whether both bookkeeping tables have the newest column of this version: the count is 2 when
   * they do. Parameters: the positions table's schema and name, the note table's.
   */
  public static final String TABLES_READY =
      "SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
          + " JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " WHERE a.attnum > 0 AND NOT a.attisdropped AND ("
          + "(n.nspname = ? AND c.relname = ? AND a.attname = 'completed_offsets')"
          + " OR (n.nspname = ? AND c.relname = ? AND a.attname = 'range_lower_incl'))";

  private PositionSql() {}

  private static String update(String set) {
    return "UPDATE " + NoteTable.POSITIONS + " SET " + set + ", updated_at = now()" + WHERE_TABLE;
  }
}
