package io.cdccompare.jdbc.hash;

import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Looks rows up by key, {@value #BATCH} keys per statement ({@link Dialect#selectByKeysSql};
 * {@value #SINGLE_COLUMN_BATCH} for a key of one column, asked as one {@code IN} list), and hashes
 * those found: what a key-list chunk reads on the source and on a target. One round trip per batch
 * instead of one per key, the cost of a key list that is not small. A row counts for a key only
 * when its key text is exactly that key: a collation that ignores case or accents may return a row
 * with another key, which is not the key's row. Runs on the caller's connection, in the caller's
 * transaction. Not thread-safe.
 */
public final class KeyLookup {
  /** Keys per statement, for a key of several columns (OR-ed equalities). */
  public static final int BATCH = 100;

  /** Keys per statement, for a key of one column (an {@code IN} list). */
  public static final int SINGLE_COLUMN_BATCH = 1000;

  private final Connection connection;
  private final Dialect dialect;
  private final TableRef table;
  private final List<String> selectList;
  private final KeyBinder binder;
  private final JdbcKeyReader keys;
  private final JdbcRowHasher hasher;

  /**
   * @param selectList the key reader's columns, then the hasher's
   */
  public KeyLookup(
      Connection connection,
      Dialect dialect,
      TableRef table,
      List<String> selectList,
      KeyBinder binder,
      JdbcKeyReader keys,
      JdbcRowHasher hasher) {
    this.connection = connection;
    this.dialect = dialect;
    this.table = table;
    this.selectList = List.copyOf(selectList);
    this.binder = binder;
    this.keys = keys;
    this.hasher = hasher;
  }

  /** The hash of each key's row that was found, in the order of {@code wanted}. */
  public Map<String, byte[]> find(Collection<String> wanted) throws SQLException {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(wanted));
    Map<String, byte[]> found = new HashMap<>();
    Map<Integer, PreparedStatement> statements = new HashMap<>();
    try {
      int size = binder.keyColumns().size() == 1 ? SINGLE_COLUMN_BATCH : BATCH;
      for (int from = 0; from < distinct.size(); from += size) {
        List<String> batch = distinct.subList(from, Math.min(distinct.size(), from + size));
        PreparedStatement statement = statements.get(batch.size());
        if (statement == null) {
          statement =
              connection.prepareStatement(
                  dialect.selectByKeysSql(
                      table, selectList, binder.keyColumns(), binder.placeholders(), batch.size()));
          statements.put(batch.size(), statement);
        }
        int next = 1;
        for (String key : batch) {
          next = binder.bind(statement, next, key);
        }
        Set<String> asked = new HashSet<>(batch);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            String key = keys.encode(rows);
            if (asked.contains(key) && !found.containsKey(key)) {
              found.put(key, hasher.digest(rows));
            }
          }
        }
      }
    } finally {
      for (PreparedStatement statement : statements.values()) {
        statement.close();
      }
    }
    Map<String, byte[]> inOrder = new LinkedHashMap<>();
    for (String key : distinct) {
      byte[] hash = found.get(key);
      if (hash != null) {
        inOrder.put(key, hash);
      }
    }
    return inOrder;
  }
}
