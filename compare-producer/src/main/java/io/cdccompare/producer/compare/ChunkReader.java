package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.verifier.hash.JdbcKeyReader;
import io.cdccompare.verifier.hash.JdbcRowHasher;
import io.cdccompare.verifier.hash.KeyBinder;
import io.cdccompare.verifier.sql.KeysetQueries;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads chunks of one table in key order on a connection of its own: each chunk in one {@code
 * REPEATABLE READ, READ ONLY} transaction (one snapshot), streamed with a fetch size (autocommit
 * off), never more than the chunk's compared keys and hashes in memory.
 *
 * <p>Each read looks one row past the chunk, so that the caller knows whether another chunk follows
 * without a probe. With {@code deep = 100} one query reads and hashes the next {@code chunk} rows.
 * With a smaller {@code deep}, a first query reads only the key columns of the next {@code chunk}
 * rows, keeping the last {@code round(chunk × deep / 100)} keys; a second query in the same
 * snapshot reads and hashes exactly the rows of the compared key range. Not thread-safe.
 */
final class ChunkReader {
  private final Connection connection;
  private final ScanPlan plan;
  private final ChunkSampling sampling;
  private final int fetchSize;
  private final KeysetQueries queries;
  private final KeyBinder binder;
  private final JdbcKeyReader keyReader;
  private final JdbcRowHasher hasher;
  private final int hashLength;

  ChunkReader(Connection connection, ScanPlan plan, int fetchSize) throws SQLException {
    this.connection = connection;
    this.plan = plan;
    this.sampling = plan.task().sampling();
    this.fetchSize = Math.min(fetchSize, sampling.chunk());
    this.queries = plan.queries();
    this.binder = plan.keyBinder();
    this.keyReader = plan.keyReader();
    this.hasher = plan.rowHasher();
    this.hashLength = plan.hashLength();
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    connection.setReadOnly(true);
  }

  /** Whether any row follows {@code afterKey} ({@code null}: whether the table has a row). */
  boolean anyRowAfter(String afterKey) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(queries.anyRow(afterKey != null))) {
      if (afterKey != null) {
        binder.bind(s, 1, afterKey);
      }
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    } finally {
      connection.commit();
    }
  }

  /** The chunk after {@code afterKey} ({@code null}: the first chunk), read in one snapshot. */
  ChunkRead read(String afterKey) throws SQLException {
    try {
      return sampling.deep() == 100 ? readAll(afterKey) : readSampled(afterKey);
    } finally {
      connection.commit();
    }
  }

  private ChunkRead readAll(String afterKey) throws SQLException {
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    int chunk = sampling.chunk();
    List<String> keys = new ArrayList<>(Math.min(chunk, 1 << 16));
    ByteArrayOutputStream hashes = new ByteArrayOutputStream(Math.min(chunk, 1 << 16) * hashLength);
    boolean more = false;
    try (PreparedStatement s =
        connection.prepareStatement(queries.chunk(select, afterKey != null))) {
      int next = afterKey == null ? 1 : binder.bind(s, 1, afterKey);
      s.setInt(next, chunk + 1);
      s.setFetchSize(fetchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (keys.size() == chunk) {
            more = true;
            break;
          }
          keys.add(keyReader.encode(rs));
          hashes.writeBytes(hasher.digest(rs));
        }
      }
    }
    if (keys.isEmpty()) {
      return ChunkRead.empty();
    }
    return new ChunkRead(
        keys.size(), keys.get(0), keys.get(keys.size() - 1), keys, hashes.toByteArray(), more);
  }

  private ChunkRead readSampled(String afterKey) throws SQLException {
    int chunk = sampling.chunk();
    int window = Math.max(1, sampling.comparedRows(chunk));
    String[] lastKeys = new String[window];
    int rows = 0;
    boolean more = false;
    try (PreparedStatement s =
        connection.prepareStatement(queries.chunk(keyReader.selectList(), afterKey != null))) {
      int next = afterKey == null ? 1 : binder.bind(s, 1, afterKey);
      s.setInt(next, chunk + 1);
      s.setFetchSize(fetchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (rows == chunk) {
            more = true;
            break;
          }
          lastKeys[rows % window] = keyReader.encode(rs);
          rows++;
        }
      }
    }
    if (rows == 0) {
      return ChunkRead.empty();
    }
    String lastKey = lastKeys[(rows - 1) % window];
    int compared = sampling.comparedRows(rows);
    if (compared == 0) {
      return new ChunkRead(rows, null, lastKey, List.of(), new byte[0], more);
    }
    String firstCompared = lastKeys[(rows - compared) % window];
    List<String> keys = new ArrayList<>(compared);
    ByteArrayOutputStream hashes = new ByteArrayOutputStream(compared * hashLength);
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    try (PreparedStatement s = connection.prepareStatement(queries.range(select))) {
      binder.bind(s, binder.bind(s, 1, firstCompared), lastKey);
      s.setFetchSize(fetchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          keys.add(keyReader.encode(rs));
          hashes.writeBytes(hasher.digest(rs));
        }
      }
    }
    if (keys.size() != compared) {
      throw new IllegalStateException(
          "table "
              + plan.task().table()
              + ": the compared key range of a chunk held "
              + keys.size()
              + " rows in the snapshot that counted "
              + compared);
    }
    return new ChunkRead(rows, firstCompared, lastKey, keys, hashes.toByteArray(), more);
  }
}
