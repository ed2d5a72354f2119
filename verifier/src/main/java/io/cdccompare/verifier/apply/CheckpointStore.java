package io.cdccompare.verifier.apply;

import io.cdccompare.jdbc.db.BookkeepingStore;
import io.cdccompare.jdbc.sql.CheckpointSql;
import io.cdccompare.jdbc.sql.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes the checkpoint table ({@link CheckpointSql}) on the caller's connection and in
 * the caller's transaction: the applier locks and moves checkpoints inside the transaction that
 * applies the changes they cover. Not thread-safe.
 */
public final class CheckpointStore extends BookkeepingStore<CheckpointSql> {

  /**
   * @param schema the schema (PostgreSQL) or database (MariaDB) of the table, {@code null} for the
   *     connection's current one; it must exist
   */
  public CheckpointStore(Connection connection, Dialect dialect, String schema) {
    super(connection, dialect, new CheckpointSql(dialect, schema), "updated_at");
  }

  /** The checkpoint of one partition, if one was written. */
  public Optional<Checkpoint> find(String application, String topic, int partition)
      throws SQLException {
    return read(application, topic, partition, false);
  }

  /**
   * The checkpoint of one partition, its row locked until the caller's transaction ends. Call with
   * auto-commit off.
   */
  public Optional<Checkpoint> lock(String application, String topic, int partition)
      throws SQLException {
    return read(application, topic, partition, true);
  }

  /**
   * Every checkpoint of one application, ordered by topic and partition: how far that application
   * has applied each partition to this target (read by {@code cdc-compare status}). Reads without
   * locking; the table must exist (a missing table is the database's error).
   */
  public List<Checkpoint> list(String application) throws SQLException {
    // the columns after application, in table order: topic, partition, offset, LSNs, updated_at
    List<String> read =
        CheckpointSql.COLUMNS.subList(1, CheckpointSql.COLUMNS.size()).stream()
            .map(c -> dialect.quote(c.name()))
            .toList();
    String select =
        "SELECT "
            + String.join(", ", read)
            + " FROM "
            + dialect.qualified(sql.table())
            + " WHERE "
            + dialect.keyEquals(CheckpointSql.PRIMARY_KEY.subList(0, 1), List.of("?"))
            + " ORDER BY "
            + read.get(0)
            + ", "
            + read.get(1);
    List<Checkpoint> out = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(select)) {
      statement.setString(1, application);
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          out.add(
              new Checkpoint(
                  application,
                  row.getString(1),
                  row.getInt(2),
                  row.getLong(3),
                  getLong(row, 4),
                  getLong(row, 5),
                  readTimestamp(row, 6)));
        }
      }
    }
    return out;
  }

  /** Inserts or overwrites a checkpoint, in the caller's transaction. */
  public void save(Checkpoint checkpoint) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql.upsert())) {
      statement.setString(1, checkpoint.application());
      statement.setString(2, checkpoint.topic());
      statement.setInt(3, checkpoint.partition());
      statement.setLong(4, checkpoint.offset());
      setLong(statement, 5, checkpoint.commitLsn());
      setLong(statement, 6, checkpoint.lsn());
      bindTimestamp(statement, 7, checkpoint.updatedAt());
      statement.executeUpdate();
    }
  }

  private Optional<Checkpoint> read(String application, String topic, int partition, boolean lock)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql.select(lock))) {
      statement.setString(1, application);
      statement.setString(2, topic);
      statement.setInt(3, partition);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Checkpoint(
                application,
                topic,
                partition,
                row.getLong(1),
                getLong(row, 2),
                getLong(row, 3),
                readTimestamp(row, 4)));
      }
    }
  }

  private static void setLong(PreparedStatement statement, int index, Long value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, value);
    }
  }

  private static Long getLong(ResultSet row, int column) throws SQLException {
    long value = row.getLong(column);
    return row.wasNull() ? null : value;
  }
}
