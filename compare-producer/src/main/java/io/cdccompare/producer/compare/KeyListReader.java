package io.cdccompare.producer.compare;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.verifier.hash.JdbcKeyReader;
import io.cdccompare.verifier.hash.JdbcRowHasher;
import io.cdccompare.verifier.hash.KeyBinder;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads key-list chunks of one table on a connection of its own (docs/design.md, "Key-list
 * chunks"): each chunk in one {@code REPEATABLE READ, READ ONLY} transaction (one snapshot,
 * autocommit off), one lookup by key per listed key with the dialect's select-by-key statement. A
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
  private final String byKey;

  /**
   * What a key-list chunk read gave.
   *
   * @param read the present keys and their hashes, in the chunk's order; its {@code rows} is the
   *     number of keys asked, its range and first and last keys are null (a key-list chunk compares
   *     no range)
   * @param absentKeys the listed keys the source does not hold, in the chunk's order
   */
  record KeyListRead(ChunkRead read, List<String> absentKeys) {}

  KeyListReader(Connection connection, ScanPlan plan) throws SQLException {
    this.connection = connection;
    this.plan = plan;
    this.binder = plan.keyBinder();
    this.keyReader = plan.keyReader();
    this.hasher = plan.rowHasher();
    List<String> select = new ArrayList<>(keyReader.selectList());
    select.addAll(hasher.selectList());
    this.byKey =
        plan.dialect()
            .selectByKeySql(plan.table(), select, plan.keyColumns(), binder.placeholders());
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

  /** Reads the chunk's keys in one snapshot. */
  KeyListRead read(KeyList chunk) throws SQLException {
    List<String> keys = chunk.keys();
    List<String> present = new ArrayList<>(keys.size());
    List<String> absent = new ArrayList<>();
    ByteArrayOutputStream hashes = new ByteArrayOutputStream(keys.size() * plan.hashLength());
    try (PreparedStatement s = connection.prepareStatement(byKey)) {
      for (String key : keys) {
        binder.bind(s, 1, key);
        boolean found = false;
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            // a collation that ignores case or accents may find a row with another key
            if (!found && keyReader.encode(rs).equals(key)) {
              present.add(key);
              hashes.writeBytes(hasher.digest(rs));
              found = true;
            }
          }
        }
        if (!found) {
          absent.add(key);
        }
      }
    } finally {
      connection.commit();
    }
    ChunkRead read =
        new ChunkRead(keys.size(), null, null, null, null, present, hashes.toByteArray(), false);
    return new KeyListRead(read, absent);
  }
}
