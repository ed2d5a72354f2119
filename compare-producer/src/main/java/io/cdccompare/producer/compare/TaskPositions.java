package io.cdccompare.producer.compare;

import io.cdccompare.core.stream.TopicOffsets;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.PgCatalog;
import io.cdccompare.source.PositionSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each table of a task stands, on the source, on a connection of its own (autocommit off,
 * every method one committed transaction): the rows of {@code repi.comparetables} (never
 * published), read when a run starts or resumes, reset when a table's run starts, and marked done.
 * Beside the resume position it keeps where the table topic stood ({@link TopicOffsets}): when the
 * table's full run started ({@code start_offsets}), and when its last completed run started ({@code
 * completed_offsets}, where an incremental run reads from); a run that starts and fails never
 * touches the completed offsets. The notes that move a position chunk by chunk are {@link
 * ChunkNotes}', which commit the position with the note; the lock that keeps a task single is
 * {@link TaskLock}.
 */
final class TaskPositions extends TaskBookkeeping {

  TaskPositions(Connection connection, String task) throws SQLException {
    super(connection, task);
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
      boolean tailClosed,
      TopicOffsets startOffsets,
      TopicOffsets completedOffsets) {

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
      if (PgCatalog.column(connection, NoteTable.POSITIONS, "completed_offsets").isEmpty()) {
        s.execute(NoteTable.POSITIONS_UPGRADE);
      }
      if (PgCatalog.column(connection, NoteTable.NAME, "range_lower_incl").isEmpty()) {
        s.execute(NoteTable.UPGRADE);
      }
    }
    connection.commit();
  }

  /**
   * Whether both bookkeeping tables have every column of this version, so that {@link
   * #ensureTables} would change nothing: one catalog query, no lock taken.
   */
  boolean tablesReady() throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(PositionSql.TABLES_READY)) {
      s.setString(1, NoteTable.POSITIONS.schema());
      s.setString(2, NoteTable.POSITIONS.table());
      s.setString(3, NoteTable.NAME.schema());
      s.setString(4, NoteTable.NAME.table());
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 2;
      }
    } finally {
      connection.commit();
    }
  }

  /** The stored positions of this task, by table. */
  Map<TableName, Position> load() throws SQLException {
    Map<TableName, Position> positions = new HashMap<>();
    try (PreparedStatement s = connection.prepareStatement(PositionSql.LOAD)) {
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
                  rs.getBoolean(13),
                  offsets(rs.getString(14)),
                  offsets(rs.getString(15))));
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
    try (PreparedStatement s = connection.prepareStatement(PositionSql.RESET)) {
      bindTable(s, 1, table);
      s.setString(4, taskRunId);
      s.setString(5, runId);
      s.setString(6, kind.name());
      s.executeUpdate();
    }
  }

  /**
   * Records where the table topic stood when the table's full run started: the completed offsets
   * the run leaves when it completes.
   */
  void recordStart(TableName table, TopicOffsets offsets) throws SQLException {
    update(table, PositionSql.RECORD_START, offsets.encode());
  }

  /**
   * Marks a table done in this run; its start offsets become its completed offsets (kept as they
   * were when the run started without recording any: a run of an earlier version).
   */
  void finish(TableName table) throws SQLException {
    update(table, PositionSql.FINISH, null);
  }

  /**
   * Sets a table's completed offsets after an incremental run of it completed: where the stream
   * stood when that run started. The table's resume position and start offsets are left as they
   * are, so a stopped full run of the task still resumes where it stopped.
   */
  void complete(TableName table, TopicOffsets offsets) throws SQLException {
    update(table, PositionSql.COMPLETE, offsets.encode());
  }

  private void update(TableName table, String statement, String value) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(statement)) {
      int i = 1;
      if (value != null) {
        s.setString(i++, value);
      }
      bindTable(s, i, table);
      s.executeUpdate();
    }
    connection.commit();
  }

  private static TopicOffsets offsets(String text) {
    return text == null ? null : TopicOffsets.decode(text);
  }
}
