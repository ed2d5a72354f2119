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

  /**
   * The re-sends in progress whose snapshot windows are fenced ({@link #FENCE_FUNCTION}): one row
   * per re-send signal, written by the re-send before its signal and deleted when it ended. {@code
   * table_name} is the quoted qualified name; {@code owner_pid} the re-send's session (a row whose
   * session is gone is ignored); {@code wait_ms} how long a window waits for the table's writers;
   * {@code missed} is set by a window that opened without the fence, naming the sessions that held
   * the table.
   */
  public static final String FENCES_DDL =
      """
      CREATE TABLE IF NOT EXISTS repi.resend_fences (
        signal_id  varchar(42) PRIMARY KEY,
        table_name text NOT NULL,
        owner_pid  integer NOT NULL,
        wait_ms    integer NOT NULL,
        missed     text
      )""";

  /** The trigger function's name, for the re-send's check that the fence is installed. */
  public static final String FENCE_FUNCTION_NAME = "fence_resend_window";

  /**
   * Makes a re-send's snapshot window exact (docs/design.md, "Repair"). Debezium opens each window
   * of its incremental snapshot by inserting a {@code snapshot-window-open} row into this table and
   * committing, then reads the chunk in a new snapshot. A writer whose commit record precedes the
   * window's but is not yet visible to that snapshot would have its change on the topic before the
   * window and its older row read in it. Before the window's row is inserted, this function takes a
   * {@code SHARE} lock on each table being re-sent, held until the window commits: PostgreSQL
   * releases a transaction's locks only after it became visible, so every writer of the table that
   * commits before the window is visible to the chunk's read, and no writer commits between the
   * lock and the window's commit. The lock is tried for 50 ms at a time with 20 ms pauses, so
   * writers queue behind it at most 50 ms; past the re-send's {@code wait_ms} the window opens
   * without it and the fence row names the sessions that held the table ({@code missed}).
   *
   * <p>{@code SECURITY DEFINER}: it locks and writes as the role that created it (the capture's),
   * not as the role of Debezium's session.
   */
  public static final String FENCE_FUNCTION =
      """
      CREATE OR REPLACE FUNCTION repi.fence_resend_window() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER
      SET search_path = pg_catalog, pg_temp
      SET lock_timeout = '50ms'
      AS $fence$
      DECLARE
        f record;
        deadline timestamptz;
        held text;
      BEGIN
        FOR f IN
          SELECT r.signal_id, r.table_name, r.wait_ms FROM repi.resend_fences r
           WHERE EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = r.owner_pid)
           ORDER BY r.signal_id
        LOOP
          deadline := clock_timestamp() + f.wait_ms * interval '1 millisecond';
          LOOP
            BEGIN
              EXECUTE format('LOCK TABLE %s IN SHARE MODE', f.table_name);
              EXIT;
            EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
              IF clock_timestamp() >= deadline THEN
                SELECT string_agg(DISTINCT format('pid %s (%s, %s, transaction since %s,'
                         || ' application ''%s'')', a.pid, a.state,
                         coalesce(a.wait_event_type || '/' || a.wait_event, 'not waiting'),
                         a.xact_start, a.application_name), '; ')
                  INTO held
                  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.relation = f.table_name::regclass AND l.granted
                   AND l.mode NOT IN ('AccessShareLock', 'RowShareLock')
                   AND l.pid <> pg_backend_pid();
                UPDATE repi.resend_fences
                   SET missed = coalesce(held, 'a session no longer shown')
                 WHERE signal_id = f.signal_id;
                EXIT;
              END IF;
              PERFORM pg_sleep(0.02);
            END;
          END LOOP;
        END LOOP;
        RETURN NEW;
      END
      $fence$""";

  /** The body of {@link #FENCE_FUNCTION}, as {@code pg_proc.prosrc} holds it. */
  public static String fenceFunctionBody() {
    int start = FENCE_FUNCTION.indexOf("$fence$") + "$fence$".length();
    return FENCE_FUNCTION.substring(start, FENCE_FUNCTION.lastIndexOf("$fence$"));
  }

  /**
   * Counts the fence triggers on the signal table whose function has the body given as parameter: 1
   * when this version's fence is installed.
   */
  public static final String FENCE_INSTALLED =
      """
      SELECT count(*) FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
       WHERE t.tgrelid = 'repi.signals'::regclass AND t.tgname = 'fence_resend_window'
         AND t.tgenabled <> 'D' AND p.prosrc = ?""";

  /** Runs {@link #FENCE_FUNCTION} before each window-open row Debezium inserts. */
  public static final String FENCE_TRIGGER =
      """
      CREATE OR REPLACE TRIGGER fence_resend_window BEFORE INSERT ON repi.signals
      FOR EACH ROW WHEN (NEW.type = 'snapshot-window-open')
      EXECUTE FUNCTION repi.fence_resend_window()""";

  /** Debezium's {@code signal.data.collection} for PostgreSQL: {@code <schema>.<table>}. */
  public static final String DATA_COLLECTION = NAME.schema() + "." + NAME.table();

  private SignalTable() {}
}
