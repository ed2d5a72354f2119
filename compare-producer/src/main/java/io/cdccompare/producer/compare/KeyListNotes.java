package io.cdccompare.producer.compare;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.MarkerCodec;
import io.cdccompare.schemas.avro.HashRecordLocation;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.source.NoteSql;
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
    commit(
        () -> {
          try (PreparedStatement note = connection.prepareStatement(NoteSql.OPEN)) {
            NoteSql.bindOpen(
                note,
                new NoteSql.Open(
                    task, table, runId, kind.name(), chunk, 100, 0, 1, fingerprint, shape, null));
            note.executeUpdate();
          }
        });
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
    commit(
        () -> {
          try (Statement durable = connection.createStatement();
              PreparedStatement note = connection.prepareStatement(NoteSql.CLOSE_OF_OPEN)) {
            int i =
                NoteSql.bindClose(
                    note,
                    new NoteSql.Close(
                        task,
                        table,
                        runId,
                        chunk,
                        null,
                        null,
                        read.rows(),
                        read.comparedRows(),
                        hashesTopic,
                        MarkerCodec.locations(locations),
                        null,
                        null));
            note.setLong(i, chunk);
            // this commit flushes its WAL at once, so logical decoding streams the CLOSE now
            // rather than when the WAL writer next flushes (wal_writer_delay, 200 ms by default),
            // which a short key-list run would wait for in full (the session's notes are
            // asynchronous otherwise)
            durable.execute("SET LOCAL synchronous_commit = on");
            requireClosed(
                note.executeUpdate(), table, "key-list chunk " + chunk + " of run " + runId);
          }
        });
  }
}
