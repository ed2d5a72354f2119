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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Reads chunks of one table in key order on a connection of its own: each chunk in one {@code
 * REPEATABLE READ, READ ONLY} transaction (one snapshot), streamed with a fetch size (autocommit
 * off), never more than the chunk's compared keys and hashes in memory.
 *
 * <p>Each read looks one row past the chunk, so that the caller knows whether another chunk follows
 * without a probe. With {@code deep = 100} one query reads every row of the next {@code chunk}; the
 * rows' values are handed in batches to the hashing thread, which encodes their keys and hashes
 * them while this thread reads on and the caller goes on to the next chunk: the scan waits for the
 * source, the hashing for the CPU, and neither for the other. With a smaller {@code deep}, a first
 * query reads only the key columns of the next {@code chunk} rows, keeping the last {@code
 * round(chunk × deep / 100)} keys; a second query in the same snapshot reads and hashes exactly the
 * rows of the compared key range. Not thread-safe.
 */
final class ChunkReader {
  /** Rows handed to the hashing thread at once. */
  private static final int HASH_BATCH = 1_000;

  private final Connection connection;
  private final ScanPlan plan;
  private final ChunkSampling sampling;
  private final int fetchSize;
  private final KeysetQueries queries;
  private final KeyBinder binder;
  private final JdbcKeyReader keyReader;
  private final JdbcRowHasher hasher;
  private final int hashLength;
  private final Executor hashing;

  /**
   * @param hashing one thread, shared by the readers of one run, that hashes the rows read ({@code
   *     deep = 100}); it runs a chunk's batches in order, and one chunk after the other
   */
  ChunkReader(Connection connection, ScanPlan plan, int fetchSize, Executor hashing)
      throws SQLException {
    this.connection = connection;
    this.plan = plan;
    this.sampling = plan.task().sampling();
    this.fetchSize = Math.min(fetchSize, sampling.chunk());
    this.queries = plan.queries();
    this.binder = plan.keyBinder();
    this.keyReader = plan.keyReader();
    this.hasher = plan.rowHasher();
    this.hashLength = plan.hashLength();
    this.hashing = hashing;
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    connection.setReadOnly(true);
  }

  /**
   * A chunk as its scan left it: its row count, its last key and whether more rows follow are known
   * at once; its compared keys and hashes may still be in the making on the hashing thread.
   *
   * @param lastKey the key of the chunk's last row, {@code null} for an empty chunk
   * @param read completes with the chunk's keys and hashes, or with what stopped their hashing
   */
  record ChunkScan(int rows, String lastKey, boolean moreRows, CompletableFuture<ChunkRead> read) {
    static ChunkScan of(ChunkRead read) {
      return new ChunkScan(
          read.rows(), read.lastKey(), read.moreRows(), CompletableFuture.completedFuture(read));
    }
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
  ChunkScan read(String afterKey) throws SQLException {
    try {
      return sampling.deep() == 100 ? readAll(afterKey) : ChunkScan.of(readSampled(afterKey));
    } finally {
      connection.commit();
    }
  }

  private ChunkScan readAll(String afterKey) throws SQLException {
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    int chunk = sampling.chunk();
    HashedRows hashed = new HashedRows(Math.min(chunk, 1 << 16));
    CompletableFuture<Void> hashedSoFar = CompletableFuture.completedFuture(null);
    List<Object[][]> batch = new ArrayList<>(HASH_BATCH);
    Object[] lastKey = null;
    int rows = 0;
    boolean more = false;
    try (PreparedStatement s =
        connection.prepareStatement(queries.chunk(select, afterKey != null))) {
      int next = afterKey == null ? 1 : binder.bind(s, 1, afterKey);
      s.setInt(next, chunk + 1);
      s.setFetchSize(fetchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (rows == chunk) {
            more = true;
            break;
          }
          lastKey = keyReader.values(rs);
          batch.add(new Object[][] {lastKey, hasher.values(rs)});
          rows++;
          if (batch.size() == HASH_BATCH) {
            hashedSoFar = hashedSoFar.thenRunAsync(hashed.add(batch), hashing);
            batch = new ArrayList<>(HASH_BATCH);
          }
        }
      }
    }
    if (rows == 0) {
      return ChunkScan.of(ChunkRead.empty());
    }
    hashedSoFar = hashedSoFar.thenRunAsync(hashed.add(batch), hashing);
    boolean moreRows = more;
    return new ChunkScan(
        rows,
        keyReader.encode(lastKey),
        more,
        hashedSoFar.thenApply(done -> hashed.read(moreRows)));
  }

  /** A chunk's keys and hashes as the hashing thread makes them, batch after batch. */
  private final class HashedRows {
    private final List<String> keys;
    private final ByteArrayOutputStream hashes;

    HashedRows(int capacity) {
      keys = new ArrayList<>(capacity);
      hashes = new ByteArrayOutputStream(capacity * hashLength);
    }

    /** The work of hashing a batch of rows, each its key values and its hashed values. */
    Runnable add(List<Object[][]> batch) {
      return () -> {
        for (Object[][] row : batch) {
          keys.add(keyReader.encode(row[0]));
          hashes.writeBytes(hasher.digest(row[1]));
        }
      };
    }

    ChunkRead read(boolean more) {
      return new ChunkRead(
          keys.size(), keys.get(0), keys.get(keys.size() - 1), keys, hashes.toByteArray(), more);
    }
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
