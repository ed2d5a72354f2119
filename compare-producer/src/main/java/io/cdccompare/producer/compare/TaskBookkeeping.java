package io.cdccompare.producer.compare;

import java.sql.Connection;
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

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
