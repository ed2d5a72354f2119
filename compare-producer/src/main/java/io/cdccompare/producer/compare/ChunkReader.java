package io.cdccompare.producer.compare;

import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.sql.KeysetQueries;
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
 * without a probe, and whether this one is the table's last. With {@code deep = 100} one query
 * reads every row of the next {@code chunk}; the rows' values are handed in batches to the hashing
 * thread, which encodes their keys and hashes them while this thread reads on and the caller goes
 * on to the next chunk: the scan waits for the source, the hashing for the CPU, and neither for the
 * other. The chunk compares the keys after the previous chunk's last key up to its own last key,
 * the first chunk open below and the last open above ({@link ComparedRange#after}). With a smaller
 * {@code deep}, a first query reads only the key columns of the next {@code chunk} rows, keeping
 * the keys that bound the run's slice ({@link ChunkSampling#slice}); a second query in the same
 * snapshot reads and hashes exactly the rows of that slice. A table without rows is one empty chunk
 * that compares the whole key space, whatever {@code deep}. Not thread-safe.
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
  private final ExactSnapshot snapshot;

  /**
   * @param hashing one thread, shared by the readers of one run, that hashes the rows read ({@code
   *     deep = 100}); it runs a chunk's batches in order, and one chunk after the other
   * @param snapshot begins each chunk's read transaction on {@code connection}
   */
  ChunkReader(
      Connection connection, ScanPlan plan, int fetchSize, Executor hashing, ExactSnapshot snapshot)
      throws SQLException {
    this.connection = connection;
    this.snapshot = snapshot;
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
        binder.bindBound(s, 1, afterKey);
      }
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    } finally {
      connection.commit();
    }
  }

  /**
   * The chunk after {@code afterKey} ({@code null}: the first chunk), read in one snapshot that
   * sees every change committed before the chunk's OPEN note ({@link ExactSnapshot}), or null when
   * the run was asked to stop while that snapshot waited.
   *
   * @param chunk the chunk's number, for the messages
   * @param slice the slice of the chunk compared below {@code deep = 100} ({@link
   *     ChunkSampling#sliceOfRun})
   */
  ChunkScan read(String afterKey, long chunk, int slice) throws SQLException {
    if (!snapshot.begin("table " + plan.task().table() + " chunk " + chunk)) {
      return null;
    }
    try {
      return sampling.deep() == 100
          ? readAll(afterKey)
          : ChunkScan.of(readSampled(afterKey, slice));
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
            connection.prepareStatement(queries.chunk(select, afterKey != null));
        ResultSet rs = bindChunk(s, afterKey).executeQuery()) {
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
    if (rows == 0) {
      return ChunkScan.of(ChunkRead.empty(ComparedRange.after(afterKey, null)));
    }
    hashedSoFar = hashedSoFar.thenRunAsync(hashed.add(batch), hashing);
    String last = keyReader.encode(lastKey);
    ComparedRange range = ComparedRange.after(afterKey, more ? last : null);
    boolean moreRows = more;
    return new ChunkScan(
        rows, last, more, hashedSoFar.thenApply(done -> hashed.read(range, moreRows)));
  }

  /**
   * Binds a chunk query ({@link KeysetQueries#chunk}): the key the chunk follows, if any, and a
   * limit of one row past the chunk, so that the read sees whether more rows follow; streamed by
   * the fetch size.
   */
  private PreparedStatement bindChunk(PreparedStatement s, String afterKey) throws SQLException {
    int next = afterKey == null ? 1 : binder.bindBound(s, 1, afterKey);
    s.setInt(next, sampling.chunk() + 1);
    s.setFetchSize(fetchSize);
    return s;
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

    ChunkRead read(ComparedRange range, boolean more) {
      String last = keys.get(keys.size() - 1);
      return new ChunkRead(
          keys.size(), range, keys.get(0), last, last, keys, hashes.toByteArray(), more);
    }
  }

  /**
   * A chunk below {@code deep = 100}: its keys read in key order, keeping the first and, in a ring,
   * the last ones as far back as the slice reaches; then the slice's rows read and hashed by key
   * range in the same snapshot.
   */
  private ChunkRead readSampled(String afterKey, int slice) throws SQLException {
    int chunk = sampling.chunk();
    int window = (int) Math.min(chunk, (slice + 1L) * sampling.comparedRows(chunk) + 1);
    String[] lastKeys = new String[window];
    String firstKey = null;
    int rows = 0;
    boolean more = false;
    try (PreparedStatement s =
            connection.prepareStatement(queries.chunk(keyReader.selectList(), afterKey != null));
        ResultSet rs = bindChunk(s, afterKey).executeQuery()) {
      while (rs.next()) {
        if (rows == chunk) {
          more = true;
          break;
        }
        lastKeys[rows % window] = keyReader.encode(rs);
        if (rows == 0) {
          firstKey = lastKeys[0];
        }
        rows++;
      }
    }
    if (rows == 0) {
      return ChunkRead.empty(afterKey == null ? ComparedRange.EVERYTHING : null);
    }
    String lastKey = lastKeys[(rows - 1) % window];
    ChunkSampling.Slice compared = sampling.slice(rows, slice);
    if (compared.isEmpty()) {
      return new ChunkRead(rows, null, null, null, lastKey, List.of(), new byte[0], more);
    }
    String firstCompared = compared.start() == 0 ? firstKey : lastKeys[compared.start() % window];
    String lastCompared = lastKeys[(compared.end() - 1) % window];
    List<String> keys = new ArrayList<>(compared.rows());
    ByteArrayOutputStream hashes = new ByteArrayOutputStream(compared.rows() * hashLength);
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    ComparedRange range = ComparedRange.between(firstCompared, lastCompared);
    try (PreparedStatement s = connection.prepareStatement(queries.range(select, range))) {
      binder.bindBound(s, binder.bindBound(s, 1, firstCompared), lastCompared);
      s.setFetchSize(fetchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          keys.add(keyReader.encode(rs));
          hashes.writeBytes(hasher.digest(rs));
        }
      }
    }
    if (keys.size() != compared.rows()) {
      throw new IllegalStateException(
          "table "
              + plan.task().table()
              + ": the compared key range of a chunk held "
              + keys.size()
              + " rows in the snapshot that counted "
              + compared.rows());
    }
    return new ChunkRead(
        rows, range, firstCompared, lastCompared, lastKey, keys, hashes.toByteArray(), more);
  }
}
