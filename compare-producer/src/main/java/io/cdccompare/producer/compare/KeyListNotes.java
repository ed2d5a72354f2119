package io.cdccompare.producer.compare;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The notes of key-list chunks (docs/design.md, "Key-list chunks"), on a connection of its own
 * (autocommit off, every method one committed transaction): the OPEN and CLOSE rows of {@code
 * repi.validatetables}, which the capture turns into markers, like {@link ChunkNotes}' but without
 * a position. A key-list chunk compares no key range and has no place in the table's key order, so
 * its notes carry no compared range, first or last key, or saved position, and they leave the
 * task's positions in {@code repi.comparetables} alone: a full run stopped before a recheck still
 * resumes where it stopped, and a key-list run that fails is simply run again.
 */
final class KeyListNotes extends TaskBookkeeping {

  KeyListNotes(Connection connection, String task) throws SQLException {
    super(connection, task);
  }

  /** Commits the OPEN note of a key-list chunk, before it is read. */
  void open(
      TableName table, String runId, TaskKind kind, long chunk, String fingerprint, String shape)
      throws SQLException {
    try (PreparedStatement note =
        connection.prepareStatement(
            "INSERT INTO repi.validatetables AS v (task, table_schema, table_name, run_id, kind,"
                + " chunk, phase, deep, slice, slices, column_fingerprint, compared_shape,"
                + " saved_position, noted_at) VALUES (?, ?, ?, ?, ?, ?, 'OPEN', 100, 0, 1, ?, ?,"
                + " NULL, now()) ON CONFLICT (task, table_schema, table_name) DO UPDATE SET"
                + " run_id = excluded.run_id, kind = excluded.kind, chunk = excluded.chunk,"
                + " phase = 'OPEN', deep = 100, slice = 0, slices = 1, first_key = NULL,"
                + " last_key = NULL, chunk_rows = NULL, compared_rows = NULL,"
                + " hashes_topic = NULL, hash_locations = NULL, range_lower = NULL,"
                + " range_lower_incl = NULL, range_upper = NULL,"
                + " column_fingerprint = excluded.column_fingerprint,"
                + " compared_shape = excluded.compared_shape, saved_position = NULL,"
                + " noted_at = now()")) {
      int i = 1;
      note.setString(i++, task);
      note.setString(i++, table.schema());
      note.setString(i++, table.table());
      note.setString(i++, runId);
      note.setString(i++, kind.name());
      note.setLong(i++, chunk);
      note.setString(i++, fingerprint);
      note.setString(i, shape);
      note.executeUpdate();
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    }
  }

  /**
   * Commits the CLOSE note of a read key-list chunk, after its hash records are acknowledged: rows
   * are the keys asked, compared rows the keys the source holds; no range, no first or last key.
   *
   * @throws IllegalStateException when the note row does not hold this chunk's OPEN (another run of
   *     the task wrote meanwhile)
   */
  void close(
      TableName table,
      String runId,
      long chunk,
      ChunkRead read,
      String hashesTopic,
      List<HashRecordLocation> locations)
      throws SQLException {
    try (Statement durable = connection.createStatement();
        PreparedStatement note =
            connection.prepareStatement(
                "UPDATE repi.validatetables SET phase = 'CLOSE', first_key = NULL, last_key = NULL,"
                    + " chunk_rows = ?, compared_rows = ?, hashes_topic = ?, hash_locations = ?,"
                    + " range_lower = NULL, range_lower_incl = NULL, range_upper = NULL,"
                    + " saved_position = NULL, noted_at = now() WHERE task = ? AND table_schema = ?"
                    + " AND table_name = ? AND run_id = ? AND chunk = ? AND phase = 'OPEN'")) {
      int i = 1;
      note.setInt(i++, read.rows());
      note.setInt(i++, read.comparedRows());
      note.setString(i++, hashesTopic);
      note.setString(i++, ChunkNotes.json(locations));
      note.setString(i++, task);
      note.setString(i++, table.schema());
      note.setString(i++, table.table());
      note.setString(i++, runId);
      note.setLong(i, chunk);
      // this commit flushes its WAL at once, so logical decoding streams the CLOSE now rather than
      // when the WAL writer next flushes (wal_writer_delay, 200 ms by default), which a short
      // key-list run would wait for in full (the session's notes are asynchronous otherwise)
      durable.execute("SET LOCAL synchronous_commit = on");
      if (note.executeUpdate() != 1) {
        throw new IllegalStateException(
            "task "
                + task
                + " table "
                + table
                + ": key-list chunk "
                + chunk
                + " of run "
                + runId
                + " has no OPEN note to close (was the task started twice?)");
      }
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }
}
