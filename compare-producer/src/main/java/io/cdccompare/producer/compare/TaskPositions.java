package io.cdccompare.producer.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.PgCatalog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable state of compare tasks on the source, on a connection of its own (autocommit off,
 * every method one committed transaction): the notes in {@code repi.validatetables} (the capture
 * turns each into markers) and the positions in {@code repi.comparetables} (never published). A
 * CLOSE note and the position after its chunk are committed together, so a crash at any point
 * leaves either the chunk closed and the position after it, or neither.
 */
final class TaskPositions implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connection connection;
  private final String task;

  TaskPositions(Connection connection, String task) throws SQLException {
    this.connection = connection;
    this.task = task;
    try (Statement s = connection.createStatement()) {
      // Notes need their order, not their durability: logical decoding only streams flushed WAL,
      // so a note lost in a source crash was never seen, and a lost position re-reads a chunk.
      s.execute("SET synchronous_commit = off");
    }
    connection.setAutoCommit(false);
  }

  /** A table's stored position. */
  record Position(
      TableName table,
      String taskRunId,
      String runId,
      String state,
      String fingerprint,
      long nextChunk,
      String savedPosition,
      long chunksDone,
      long rowsRead,
      long rowsCompared,
      long runsStarted,
      boolean tailClosed) {

    /**
     * The number of this table run among the task's runs of the table, from 0: it picks the slice a
     * rotating task compares ({@link io.cdccompare.core.chunk.ChunkSampling#sliceOfRun}).
     */
    long runNumber() {
      return Math.max(0, runsStarted - 1);
    }

    boolean done() {
      return "DONE".equals(state);
    }

    boolean unfinished() {
      return "PENDING".equals(state) || "RUNNING".equals(state);
    }
  }

  /**
   * Creates the positions table when the capture (an older version) has not, and adds the columns
   * that tables of an earlier version lack. The capture upgrades both tables when it starts; the
   * {@code ALTER TABLE}s, which lock the published note table, run here only where a column is
   * missing.
   */
  void ensureTables() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(NoteTable.POSITIONS_DDL);
      if (PgCatalog.column(connection, NoteTable.POSITIONS, "tail_closed").isEmpty()) {
        s.execute(NoteTable.POSITIONS_UPGRADE);
      }
      if (PgCatalog.column(connection, NoteTable.NAME, "range_lower_incl").isEmpty()) {
        s.execute(NoteTable.UPGRADE);
      }
    }
    connection.commit();
  }

  /** The stored positions of this task, by table. */
  Map<TableName, Position> load() throws SQLException {
    Map<TableName, Position> positions = new HashMap<>();
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT table_schema, table_name, task_run_id, run_id, state, column_fingerprint,"
                + " next_chunk, saved_position, chunks_done, rows_read, rows_compared,"
                + " runs_started, tail_closed"
                + " FROM repi.comparetables WHERE task = ?")) {
      s.setString(1, task);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          TableName table = new TableName(rs.getString(1), rs.getString(2));
          positions.put(
              table,
              new Position(
                  table,
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6),
                  rs.getLong(7),
                  rs.getString(8),
                  rs.getLong(9),
                  rs.getLong(10),
                  rs.getLong(11),
                  rs.getLong(12),
                  rs.getBoolean(13)));
        }
      }
    } finally {
      connection.commit();
    }
    return positions;
  }

  /**
   * Starts a task run: every table PENDING under the new run id, positions cleared, one more run
   * counted.
   */
  void startRun(String taskRunId, TaskKind kind, List<TableName> tables) throws SQLException {
    for (TableName table : tables) {
      reset(taskRunId, taskRunId, kind, table);
    }
    connection.commit();
  }

  /** Restarts one table of a running task under a new table run id. */
  void restartTable(String taskRunId, String runId, TaskKind kind, TableName table)
      throws SQLException {
    reset(taskRunId, runId, kind, table);
    connection.commit();
  }

  private void reset(String taskRunId, String runId, TaskKind kind, TableName table)
      throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "INSERT INTO repi.comparetables AS p (task, table_schema, table_name, task_run_id,"
                + " run_id, kind, state, runs_started) VALUES (?, ?, ?, ?, ?, ?, 'PENDING', 1)"
                + " ON CONFLICT (task, table_schema, table_name) DO UPDATE SET"
                + " task_run_id = excluded.task_run_id, run_id = excluded.run_id,"
                + " kind = excluded.kind, state = 'PENDING', column_fingerprint = NULL,"
                + " next_chunk = 0, saved_position = NULL, chunks_done = 0, rows_read = 0,"
                + " rows_compared = 0, runs_started = p.runs_started + 1, tail_closed = false,"
                + " started_at = now(), updated_at = now(), finished_at = NULL")) {
      s.setString(1, task);
      s.setString(2, table.schema());
      s.setString(3, table.table());
      s.setString(4, taskRunId);
      s.setString(5, runId);
      s.setString(6, kind.name());
      s.executeUpdate();
    }
  }

  /**
   * Takes the task's lock for this session (a PostgreSQL advisory lock), so that two processes
   * never run the same task at once.
   *
   * @throws IllegalStateException if another session holds it
   */
  void lock() throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement("SELECT pg_try_advisory_lock(hashtextextended(?, 0))")) {
      s.setString(1, "cdc-compare task " + task);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          throw new IllegalStateException(
              "task " + task + " is already running in another process (its lock is held)");
        }
      }
    } finally {
      connection.commit();
    }
  }

  /**
   * A chunk about to be read.
   *
   * @param slice the slice of the chunk the run compares, of {@code slices}
   */
  record Open(
      TableName table,
      String runId,
      TaskKind kind,
      long chunk,
      int deep,
      int slice,
      int slices,
      String fingerprint,
      String shape,
      String savedPosition) {}

  /** Commits the OPEN note (before the chunk is read) and marks the table RUNNING. */
  void open(Open open) throws SQLException {
    try (PreparedStatement note =
            connection.prepareStatement(
                "INSERT INTO repi.validatetables AS v (task, table_schema, table_name, run_id,"
                    + " kind, chunk, phase, deep, slice, slices, column_fingerprint,"
                    + " compared_shape, saved_position, noted_at) VALUES (?, ?, ?, ?, ?, ?, 'OPEN',"
                    + " ?, ?, ?, ?, ?, ?, now()) ON CONFLICT (task, table_schema, table_name) DO"
                    + " UPDATE SET run_id = excluded.run_id, kind = excluded.kind,"
                    + " chunk = excluded.chunk, phase = 'OPEN', deep = excluded.deep,"
                    + " slice = excluded.slice, slices = excluded.slices, first_key = NULL,"
                    + " last_key = NULL, chunk_rows = NULL, compared_rows = NULL,"
                    + " hashes_topic = NULL, hash_locations = NULL, range_lower = NULL,"
                    + " range_lower_incl = NULL, range_upper = NULL,"
                    + " column_fingerprint = excluded.column_fingerprint,"
                    + " compared_shape = excluded.compared_shape,"
                    + " saved_position = excluded.saved_position, noted_at = now()");
        PreparedStatement position =
            connection.prepareStatement(
                "UPDATE repi.comparetables SET state = 'RUNNING', column_fingerprint = ?,"
                    + " updated_at = now() WHERE task = ? AND table_schema = ? AND table_name = ?")) {
      int i = 1;
      note.setString(i++, task);
      note.setString(i++, open.table().schema());
      note.setString(i++, open.table().table());
      note.setString(i++, open.runId());
      note.setString(i++, open.kind().name());
      note.setLong(i++, open.chunk());
      note.setInt(i++, open.deep());
      note.setInt(i++, open.slice());
      note.setInt(i++, open.slices());
      note.setString(i++, open.fingerprint());
      note.setString(i++, open.shape());
      note.setString(i, open.savedPosition());
      note.executeUpdate();
      setTable(position, open.fingerprint(), open.table());
      position.executeUpdate();
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    }
  }

  /**
   * Commits the CLOSE note of a read chunk together with the table's position after it. The CLOSE
   * of the table's last chunk ({@link ChunkRead#moreRows()} false) also records that the table's
   * tail is closed, so that a run resumed after it adds no chunk that would cover its keys again.
   *
   * <p>The note row may hold, besides this chunk's OPEN, the CLOSE of the chunk before (committed
   * after this OPEN) or the OPEN of the next one (the run reads it meanwhile, {@link
   * io.cdccompare.core.chunk.ChunkWindow}): the CLOSE therefore names its chunk itself. Anything
   * else there (another run of the table) means two runs of the task are writing: refused.
   */
  void close(
      TableName table,
      String runId,
      long chunk,
      ChunkRead read,
      String hashesTopic,
      List<HashRecordLocation> locations,
      String savedPosition)
      throws SQLException {
    try (PreparedStatement note =
            connection.prepareStatement(
                "UPDATE repi.validatetables SET chunk = ?, phase = 'CLOSE', first_key = ?,"
                    + " last_key = ?, chunk_rows = ?, compared_rows = ?, hashes_topic = ?,"
                    + " hash_locations = ?, range_lower = ?, range_lower_incl = ?,"
                    + " range_upper = ?, saved_position = ?, noted_at = now()"
                    + " WHERE task = ? AND table_schema = ? AND table_name = ? AND run_id = ?"
                    + " AND (chunk = ? AND phase = 'CLOSE' OR chunk IN (?, ?) AND phase = 'OPEN')");
        PreparedStatement position =
            connection.prepareStatement(
                "UPDATE repi.comparetables SET next_chunk = ?, saved_position = ?,"
                    + " chunks_done = chunks_done + 1, rows_read = rows_read + ?,"
                    + " rows_compared = rows_compared + ?, tail_closed = ?, updated_at = now()"
                    + " WHERE task = ? AND table_schema = ? AND table_name = ?")) {
      int i = 1;
      note.setLong(i++, chunk);
      note.setString(i++, read.firstComparedKey());
      note.setString(i++, read.lastKey());
      note.setInt(i++, read.rows());
      note.setInt(i++, read.comparedRows());
      note.setString(i++, hashesTopic);
      note.setString(i++, json(locations));
      ComparedRange range = read.range();
      note.setString(i++, range == null ? null : range.lower());
      note.setObject(i++, range == null ? null : range.lowerInclusive(), Types.BOOLEAN);
      note.setString(i++, range == null ? null : range.upper());
      note.setString(i++, savedPosition);
      note.setString(i++, task);
      note.setString(i++, table.schema());
      note.setString(i++, table.table());
      note.setString(i++, runId);
      note.setLong(i++, chunk - 1);
      note.setLong(i++, chunk);
      note.setLong(i, chunk + 1);
      if (note.executeUpdate() != 1) {
        throw new IllegalStateException(
            "task "
                + task
                + " table "
                + table
                + ": chunk "
                + chunk
                + " has no OPEN note to close (was the task started twice?)");
      }
      position.setLong(1, chunk + 1);
      position.setString(2, savedPosition);
      position.setLong(3, read.rows());
      position.setLong(4, read.comparedRows());
      position.setBoolean(5, !read.moreRows());
      position.setString(6, task);
      position.setString(7, table.schema());
      position.setString(8, table.table());
      position.executeUpdate();
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }

  /** Marks a table done in this run. */
  void finish(TableName table) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "UPDATE repi.comparetables SET state = 'DONE', finished_at = now(), updated_at = now()"
                + " WHERE task = ? AND table_schema = ? AND table_name = ?")) {
      s.setString(1, task);
      s.setString(2, table.schema());
      s.setString(3, table.table());
      s.executeUpdate();
    }
    connection.commit();
  }

  private void setTable(PreparedStatement s, String fingerprint, TableName table)
      throws SQLException {
    s.setString(1, fingerprint);
    s.setString(2, task);
    s.setString(3, table.schema());
    s.setString(4, table.table());
  }

  /** The {@code hash_locations} JSON the capture parses into the CLOSE marker. */
  static String json(List<HashRecordLocation> locations) {
    ArrayNode array = JSON.createArrayNode();
    for (HashRecordLocation l : locations) {
      array
          .addObject()
          .put("tablePartition", l.getTablePartition())
          .put("hashesPartition", l.getHashesPartition())
          .put("offset", l.getOffset())
          .put("part", l.getPart())
          .put("partCount", l.getPartCount());
    }
    return array.toString();
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
