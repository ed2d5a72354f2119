package io.cdccompare.producer.compare;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** How the compare's bookkeeping sessions on the source are set up. */
final class SourceSessions {
  private SourceSessions() {}

  /**
   * A session for notes and positions: autocommit off (each write is its own committed transaction)
   * and {@code synchronous_commit} off — notes need their order, not their durability: logical
   * decoding only streams flushed WAL, so a note lost in a source crash was never seen, and a lost
   * position re-reads a chunk.
   */
  static Connection forNotes(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("SET synchronous_commit = off");
    }
    connection.setAutoCommit(false);
    return connection;
  }
}
