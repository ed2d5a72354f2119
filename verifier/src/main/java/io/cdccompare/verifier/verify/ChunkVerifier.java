package io.cdccompare.verifier.verify;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.verdict.ChunkComparison;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.jdbc.db.TargetCatalog;
import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.hash.KeyLookup;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.KeysetQueries;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies one chunk in one partition on the target (docs/design.md, "Outcomes of a chunk, per
 * target"): reads the target rows whose key lies in the chunk's compared key range ({@link
 * io.cdccompare.core.chunk.ComparedRange}: at deep=100 the ranges of a run's chunks cover the whole
 * key space, so an extra row is found wherever its key lies), in key order and streamed (fetch
 * size, auto-commit off so that PostgreSQL uses a cursor), hashes them as the source did ({@link
 * JdbcRowHasher}, target names) and merges them with the chunk's hashes in memory ({@link
 * ChunkComparison}). A chunk key the range did not return (a missed row, or a key the target orders
 * elsewhere, e.g. under another collation) is then looked up by key, so membership never depends on
 * the target's ordering. The cost follows the chunk, not the table: the range read walks the key
 * index between two bounds.
 *
 * <p>Why not a temporary table of the chunk's keys joined with the target table: the join scans the
 * whole target table (~170–230 ms per 10 000-key chunk on a 1 M-row table against ~13 ms for the
 * range read, docs/design.md, "Verifying a chunk on a target"), which makes a full compare
 * quadratic.
 *
 * <p>Not thread-safe: one verifier per connection, used by one thread.
 */
public final class ChunkVerifier {

  private final Connection connection;
  private final Dialect dialect;
  private final CanonicalFormat format;
  private final HashFunction hashFunction;
  private final int fetchSize;
  private final TargetCatalog catalog;

  private ChunkVerifier(
      Connection connection,
      Dialect dialect,
      CanonicalFormat format,
      HashFunction hashFunction,
      int fetchSize) {
    if (fetchSize <= 0) {
      throw new IllegalArgumentException("fetch size must be positive, was " + fetchSize);
    }
    this.connection = connection;
    this.dialect = dialect;
    this.format = format;
    this.hashFunction = hashFunction;
    this.fetchSize = fetchSize;
    this.catalog = new TargetCatalog(connection, dialect);
  }

  /**
   * A verifier on a connection, whose session it prepares ({@link TargetSession}).
   *
   * @param format and {@code hashFunction}: those the source hashed the chunk with
   * @param fetchSize rows fetched per round trip
   */
  public static ChunkVerifier open(
      Connection connection,
      Dialect dialect,
      CanonicalFormat format,
      HashFunction hashFunction,
      int fetchSize)
      throws SQLException {
    TargetSession.prepare(connection, dialect);
    return new ChunkVerifier(connection, dialect, format, hashFunction, fetchSize);
  }

  /**
   * The verdict of the chunk in its partition. A chunk that compares no key range reads nothing and
   * has an empty verdict; a key-list chunk reads no range but looks each of its keys up by key.
   *
   * @throws io.cdccompare.jdbc.db.TargetSchemaException if the table or a compared or key column is
   *     missing on the target
   */
  public ChunkVerdict verify(ChunkCheck check) throws SQLException {
    ChunkComparison comparison =
        new ChunkComparison(
            check.chunkHashes(), check.inFlightKeys(), check.partition(), check.partitionCount());
    if (check.keyList()) {
      return verifyKeyList(check, comparison);
    }
    if (!check.hasRange()) {
      return comparison.verdict();
    }
    Reader reader = reader(check, comparison);
    inTransaction(
        () -> {
          String range =
              new KeysetQueries(
                      dialect, check.table(), check.keyColumns(), reader.binder.placeholders())
                  .range(reader.selectList, check.range());
          reader.readRange(range, check.range());
          Set<String> unseen = comparison.unseenChunkKeys();
          if (!unseen.isEmpty()) {
            reader.lookUp(unseen);
          }
        });
    return comparison.verdict();
  }

  /**
   * A key-list chunk (docs/design.md, "Key-list chunks"): every hashed key and every absent key is
   * looked up by key ({@link KeyLookup}, a batch of keys per statement), in one transaction; no
   * range is read, so rows outside the key list are never read or counted. A hashed key found is
   * matched or failed, one not found missed; an absent key found is extra (it lives in this
   * partition and is no chunk key); a key in flight is in flight, found or not.
   */
  private ChunkVerdict verifyKeyList(ChunkCheck check, ChunkComparison comparison)
      throws SQLException {
    Set<String> lookUps = new LinkedHashSet<>(check.chunkHashes().keySet());
    lookUps.addAll(check.absentKeys());
    if (lookUps.isEmpty()) {
      return comparison.verdict();
    }
    Reader reader = reader(check, comparison);
    inTransaction(() -> reader.lookUp(lookUps));
    return withUnseenAbsentInFlight(comparison.verdict(), check);
  }

  /** The reader of a chunk's target rows: its key and hash columns, by the target's types. */
  private Reader reader(ChunkCheck check, ChunkComparison comparison) throws SQLException {
    List<String> needed = new ArrayList<>(check.keyColumns());
    check.plan().columns().stream().map(HashedColumn::targetName).forEach(needed::add);
    Map<String, ColumnType> types = catalog.require(check.table(), needed);
    JdbcKeyReader keys = new JdbcKeyReader(dialect, check.keyCodec(), check.keyColumns(), types, 1);
    JdbcRowHasher hasher =
        new JdbcRowHasher(
            check.plan(),
            Side.TARGET,
            dialect,
            types,
            format,
            hashFunction,
            check.keyColumns().size() + 1);
    KeyBinder binder = new KeyBinder(dialect, check.keyCodec(), check.keyColumns(), types);
    return new Reader(check, comparison, keys, hasher, binder);
  }

  /** Reads of one chunk. */
  @FunctionalInterface
  private interface Reads {
    void run() throws SQLException;
  }

  /**
   * Runs a chunk's reads in one transaction (autocommit off, so that PostgreSQL streams with a
   * cursor); a connection already in a transaction is left to its owner.
   */
  private void inTransaction(Reads reads) throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    try {
      reads.run();
      if (autoCommit) {
        connection.commit();
      }
    } catch (SQLException | RuntimeException e) {
      if (autoCommit) {
        TargetSession.rollback(connection, e);
      }
      throw e;
    } finally {
      if (autoCommit) {
        connection.setAutoCommit(true);
      }
    }
  }

  /**
   * The comparison counts only keys it was fed: an absent key in flight that the target does not
   * hold is in flight too (changed between the markers: the source may hold it by now).
   */
  private static ChunkVerdict withUnseenAbsentInFlight(ChunkVerdict verdict, ChunkCheck check) {
    List<String> inFlight = new ArrayList<>(verdict.inFlightKeys());
    Set<String> counted = new HashSet<>(inFlight);
    counted.addAll(verdict.extraKeys());
    for (String key : check.absentKeys()) {
      if (check.inFlightKeys().contains(key) && !counted.contains(key)) {
        inFlight.add(key);
      }
    }
    if (inFlight.size() == verdict.inFlight()) {
      return verdict;
    }
    return ChunkVerdict.of(
        verdict.matched(),
        verdict.failedKeys(),
        verdict.missedKeys(),
        verdict.extraKeys(),
        inFlight);
  }

  /** Feeds rows read on the target into the comparison. */
  private final class Reader {
    private final ChunkComparison comparison;
    private final JdbcKeyReader keys;
    private final JdbcRowHasher hasher;
    private final KeyBinder binder;
    private final List<String> selectList;
    private final TableRef table;

    Reader(
        ChunkCheck check,
        ChunkComparison comparison,
        JdbcKeyReader keys,
        JdbcRowHasher hasher,
        KeyBinder binder) {
      this.comparison = comparison;
      this.keys = keys;
      this.hasher = hasher;
      this.binder = binder;
      List<String> select = new ArrayList<>(keys.selectList());
      select.addAll(hasher.selectList());
      this.selectList = List.copyOf(select);
      this.table = check.table();
    }

    void readRange(String sql, ComparedRange bounds) throws SQLException {
      try (PreparedStatement statement =
          connection.prepareStatement(
              sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
        statement.setFetchSize(fetchSize);
        int next = 1;
        if (bounds.boundedBelow()) {
          next = binder.bindBound(statement, next, bounds.lower());
        }
        if (bounds.boundedAbove()) {
          binder.bindBound(statement, next, bounds.upper());
        }
        try (ResultSet rows = statement.executeQuery()) {
          feed(rows);
        }
      }
    }

    /** Looks the keys up by key, {@link KeyLookup#BATCH} per statement, in their order. */
    void lookUp(Set<String> lookUps) throws SQLException {
      new KeyLookup(connection, dialect, table, selectList, binder, keys, hasher)
          .find(lookUps)
          .forEach(comparison::acceptTarget);
    }

    /** Counts the rows of this partition, hashing only those compared; the others' are skipped. */
    private void feed(ResultSet rows) throws SQLException {
      while (rows.next()) {
        comparison.accept(keys.encode(rows), () -> hasher.digest(rows));
      }
    }
  }
}
