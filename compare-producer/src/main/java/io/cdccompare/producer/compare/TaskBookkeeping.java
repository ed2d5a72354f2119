package io.cdccompare.producer.compare;

import io.cdccompare.core.note.Note;
import io.cdccompare.core.table.TableName;
import io.cdccompare.source.NoteTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A compare task's rows in the source's bookkeeping tables ({@link ChunkNotes}, {@link
 * KeyListNotes}, {@link TaskPositions}), on a connection of its own set up by {@link
 * SourceSessions#forNotes}: autocommit off, every method one committed transaction. Closing closes
 * the connection.
 */
abstract class TaskBookkeeping implements AutoCloseable {
  protected final Connection connection;
  protected final String task;

  TaskBookkeeping(Connection connection, String task) throws SQLException {
    this.connection = SourceSessions.forNotes(connection);
    this.task = task;
  }

  /**
   * Binds this task and a table to a statement's last three parameters, from {@code first}: the row
   * of (task, table) that {@link io.cdccompare.source.PositionSql#WHERE_TABLE} names.
   */
  protected void bindTable(PreparedStatement s, int first, TableName table) throws SQLException {
    s.setString(first, task);
    s.setString(first + 1, table.schema());
    s.setString(first + 2, table.table());
  }

  /** The statements of one transaction on the bookkeeping connection. */
  @FunctionalInterface
  protected interface Transaction {
    void run() throws SQLException;
  }

  /** Runs {@code work} and commits it; rolls it back when it throws, and throws that again. */
  protected void commit(Transaction work) throws SQLException {
    try {
      work.run();
      connection.commit();
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }

  /**
   * Throws when a CLOSE updated no note row: the row no longer holds the chunk's OPEN, because
   * another run of the task wrote meanwhile.
   */
  protected void requireClosed(int updated, TableName table, String chunk) {
    if (updated != 1) {
      throw new IllegalStateException(
          "task "
              + task
              + " table "
              + table
              + ": "
              + chunk
              + " has no OPEN note to close (was the task started twice?)");
    }
  }

  /**
   * Commits the table's note row again, unchanged (an update that sets nothing new), in a
   * transaction of its own. With a Debezium connector on Kafka Connect, a verifier knows a CLOSE's
   * transaction is completed in every partition only once the connector's stored offset names a
   * commit after it, and Debezium stores that only once a later transaction's event was sent
   * (docs/design.md, "Stock Debezium pipelines"): this is that transaction when nothing else is
   * written. The verifiers see the note a second time and count it once.
   */
  void tick(TableName table) throws SQLException {
    commit(
        () -> {
          try (PreparedStatement tick =
              connection.prepareStatement(
                  "UPDATE "
                      + NoteTable.NAME
                      + " SET "
                      + Note.NOTED_AT
                      + " = "
                      + Note.NOTED_AT
                      + " WHERE "
                      + Note.TASK
                      + " = ? AND "
                      + Note.TABLE_SCHEMA
                      + " = ? AND "
                      + Note.TABLE_NAME
                      + " = ?")) {
            bindTable(tick, 1, table);
            tick.executeUpdate();
          }
        });
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
