package io.cdccompare.verifier.verdict;

import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.BookkeepingStore;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.VerdictSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Optional;

/**
 * Reads and writes the verdict table ({@link VerdictSql}) on the caller's connection and in the
 * caller's transaction. A verdict is inserted once, in the transaction that moves the checkpoint
 * past its CLOSE marker; a replayed marker finds it with {@link #find} and re-emits it. Not
 * thread-safe.
 */
public final class VerdictStore extends BookkeepingStore<VerdictSql> {

  /**
   * @param schema the schema (PostgreSQL) or database (MariaDB) of the table, {@code null} for the
   *     connection's current one; it must exist
   */
  public VerdictStore(Connection connection, Dialect dialect, String schema) {
    super(connection, dialect, new VerdictSql(dialect, schema), "verified_at");
  }

  /**
   * Inserts a verdict in the caller's transaction.
   *
   * @throws SQLException if a verdict with this id is stored already (a chunk has one verdict)
   */
  public void insert(PartitionVerdict verdict) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql.insert())) {
      int next = bindId(statement, verdict.id());
      ChunkVerdict counts = verdict.verdict();
      statement.setLong(next++, verdict.markerOffset());
      statement.setString(next++, verdict.state().name());
      statement.setLong(next++, counts.matched());
      statement.setLong(next++, counts.failed());
      statement.setLong(next++, counts.missed());
      statement.setLong(next++, counts.extra());
      statement.setLong(next++, counts.inFlight());
      statement.setString(next++, KeyListJson.write(counts.failedKeys()));
      statement.setString(next++, KeyListJson.write(counts.missedKeys()));
      statement.setString(next++, KeyListJson.write(counts.extraKeys()));
      statement.setString(next++, KeyListJson.write(counts.inFlightKeys()));
      if (verdict.error() == null) {
        statement.setNull(next++, Types.VARCHAR);
      } else {
        statement.setString(next++, verdict.error());
      }
      bindTimestamp(statement, next, verdict.verifiedAt());
      statement.executeUpdate();
    }
  }

  /** The stored verdict with this id, if any. */
  public Optional<PartitionVerdict> find(VerdictId id) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql.select())) {
      bindId(statement, id);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        ChunkVerdict counts =
            new ChunkVerdict(
                row.getLong("matched"),
                row.getLong("failed"),
                row.getLong("missed"),
                row.getLong("extra"),
                row.getLong("in_flight"),
                KeyListJson.read(row.getString("failed_keys")),
                KeyListJson.read(row.getString("missed_keys")),
                KeyListJson.read(row.getString("extra_keys")),
                KeyListJson.read(row.getString("in_flight_keys")));
        return Optional.of(
            new PartitionVerdict(
                id,
                row.getLong("marker_offset"),
                ChunkState.valueOf(row.getString("state")),
                counts,
                row.getString("error"),
                readTimestamp(row, row.findColumn("verified_at"))));
      }
    }
  }

  private static int bindId(PreparedStatement statement, VerdictId id) throws SQLException {
    statement.setString(1, id.application());
    statement.setString(2, id.task());
    statement.setString(3, id.runId());
    statement.setString(4, id.table());
    statement.setLong(5, id.chunk());
    statement.setInt(6, id.tablePartition());
    return 7;
  }
}
