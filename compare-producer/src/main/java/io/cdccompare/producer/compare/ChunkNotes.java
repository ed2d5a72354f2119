package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.note.HashLocation;
import io.cdccompare.core.note.Note;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * The compare notes of a task on the source, on a connection of its own (autocommit off, every
 * method one committed transaction): the OPEN and CLOSE rows of {@code repi.validatetables}, which
 * the capture turns into markers. Each note is committed together with the table's position in
 * {@code repi.comparetables} ({@link TaskPositions} reads and resets it), so a crash at any point
 * leaves either the chunk closed and the position after it, or neither.
 */
final class ChunkNotes extends TaskBookkeeping {

  ChunkNotes(Connection connection, String task) throws SQLException {
    super(connection, task);
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
  void openChunk(Open open) throws SQLException {
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
  void closeChunk(
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

  private void setTable(PreparedStatement s, String fingerprint, TableName table)
      throws SQLException {
    s.setString(1, fingerprint);
    s.setString(2, task);
    s.setString(3, table.schema());
    s.setString(4, table.table());
  }

  /** The {@code hash_locations} text of the CLOSE note ({@link Note}, the one contract). */
  static String json(List<HashRecordLocation> locations) {
    return Note.hashLocationsJson(
        locations.stream()
            .map(
                l ->
                    new HashLocation(
                        l.getTablePartition(),
                        l.getHashesPartition(),
                        l.getOffset(),
                        l.getPart(),
                        l.getPartCount()))
            .toList());
  }
}
