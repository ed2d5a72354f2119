package io.cdccompare.producer.compare;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.hash.KeyLookup;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads key-list chunks of one table on a connection of its own (docs/design.md, "Key-list
 * chunks"): each chunk in one {@code REPEATABLE READ, READ ONLY} transaction (one snapshot,
 * autocommit off), the listed keys looked up by key a batch per statement ({@link KeyLookup}). A
 * found row is hashed with the same key reader and row hasher as a full chunk's rows, so both give
 * a row the same key text and hash; a listed key the snapshot does not hold is an absent key. Not
 * thread-safe.
 */
final class KeyListReader {
  private final Connection connection;
  private final ScanPlan plan;
  private final KeyBinder binder;
  private final JdbcKeyReader keyReader;
  private final JdbcRowHasher hasher;
  private final KeyLookup lookup;
  private final ExactSnapshot snapshot;

  /**
   * What a key-list chunk read gave.
   *
   * @param read the present keys and their hashes, in the chunk's order; its {@code rows} is the
   *     number of keys asked, its range and first and last keys are null (a key-list chunk compares
   *     no range)
   * @param absentKeys the listed keys the source does not hold, in the chunk's order
   */
  record KeyListRead(ChunkRead read, List<String> absentKeys) {}

  /**
   * @param snapshot begins each chunk's read transaction on {@code connection}
   */
  KeyListReader(Connection connection, ScanPlan plan, ExactSnapshot snapshot) throws SQLException {
    this.connection = connection;
    this.snapshot = snapshot;
    this.plan = plan;
    this.binder = plan.keyBinder();
    this.keyReader = plan.keyReader();
    this.hasher = plan.rowHasher();
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    this.lookup =
        new KeyLookup(connection, plan.dialect(), plan.table(), select, binder, keyReader, hasher);
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    connection.setReadOnly(true);
  }

  /**
   * Refuses a chunk key that is no key of the table: one that does not decode into its key columns'
   * values, naming the table and the chunk. Checked before a run writes anything.
   */
  static void requireKeys(ScanPlan plan, List<KeyList> chunks) {
    for (int chunk = 0; chunk < chunks.size(); chunk++) {
      for (String key : chunks.get(chunk).keys()) {
        try {
          plan.keyCodec().decode(key);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "table "
                  + plan.task().table()
                  + ": key-list chunk "
                  + chunk
                  + " holds a key that is no key of the table "
                  + plan.keyColumns()
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    }
  }

  /**
   * Reads the chunk's keys in one snapshot that sees every change committed before the chunk's OPEN
   * note ({@link ExactSnapshot}), or returns null when the run was asked to stop while that
   * snapshot waited.
   *
   * @param what the chunk, for the messages
   */
  KeyListRead read(KeyList chunk, String what) throws SQLException {
    if (!snapshot.begin(what)) {
      return null;
    }
    List<String> keys = chunk.keys();
    List<String> present = new ArrayList<>(keys.size());
    List<String> absent = new ArrayList<>();
    ByteArrayOutputStream hashes = new ByteArrayOutputStream(keys.size() * plan.hashLength());
    Map<String, byte[]> found;
    try {
      found = lookup.find(keys);
    } finally {
      connection.commit();
    }
    for (String key : keys) {
      byte[] hash = found.get(key);
      if (hash == null) {
        absent.add(key);
      } else {
        present.add(key);
        hashes.writeBytes(hash);
      }
    }
    ChunkRead read =
        new ChunkRead(keys.size(), null, null, null, null, present, hashes.toByteArray(), false);
    return new KeyListRead(read, absent);
  }
}
