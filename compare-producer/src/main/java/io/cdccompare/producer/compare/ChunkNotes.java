package io.cdccompare.producer.compare;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.MarkerCodec;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.source.NoteSql;
import io.cdccompare.source.PositionSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
   * Commits the OPEN note (before the chunk is read) and marks the table RUNNING.
   *
   * @throws IllegalArgumentException when the note is another task's
   */
  void openChunk(NoteSql.Open open) throws SQLException {
    if (!open.task().equals(task)) {
      throw new IllegalArgumentException(
          "an OPEN note of task " + open.task() + " on the notes of task " + task);
    }
    commit(
        () -> {
          try (PreparedStatement note = connection.prepareStatement(NoteSql.OPEN);
              PreparedStatement position = connection.prepareStatement(PositionSql.RUNNING)) {
            NoteSql.bindOpen(note, open);
            note.executeUpdate();
            position.setString(1, open.fingerprint());
            bindTable(position, 2, open.table());
            position.executeUpdate();
          }
        });
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
    commit(
        () -> {
          try (PreparedStatement note = connection.prepareStatement(NoteSql.CLOSE_IN_WINDOW);
              PreparedStatement position = connection.prepareStatement(PositionSql.ADVANCE)) {
            int i =
                NoteSql.bindClose(
                    note,
                    new NoteSql.Close(
                        task,
                        table,
                        runId,
                        chunk,
                        read.firstComparedKey(),
                        read.lastKey(),
                        read.rows(),
                        read.comparedRows(),
                        hashesTopic,
                        MarkerCodec.locations(locations),
                        read.range(),
                        savedPosition));
            note.setLong(i++, chunk - 1);
            note.setLong(i++, chunk);
            note.setLong(i, chunk + 1);
            requireClosed(note.executeUpdate(), table, "chunk " + chunk);
            position.setLong(1, chunk + 1);
            position.setString(2, savedPosition);
            position.setLong(3, read.rows());
            position.setLong(4, read.comparedRows());
            position.setBoolean(5, !read.moreRows());
            bindTable(position, 6, table);
            position.executeUpdate();
          }
        });
  }
}
