package io.cdccompare.operations.explain;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One side's row of a key, read now with the verifier's own readers: the key reader, the row hasher
 * (the dialect's column access, the core's canonical text and functions) and the key binder that
 * every compare uses, so the texts shown are exactly the ones hashed.
 *
 * @param texts each compared column's canonical text after its functions, in hash order ({@code
 *     null} for NULL); empty when the side has no row
 * @param digest the row hash, empty when the side has no row
 */
record SideRow(boolean found, List<String> texts, byte[] digest) {

  private static final SideRow ABSENT = new SideRow(false, List.of(), new byte[0]);

  /**
   * Reads the row of {@code key} on one side, in a read-only transaction of its own.
   *
   * @throws IllegalArgumentException if a compared column is missing on this side
   */
  static SideRow read(
      Connection connection,
      Dialect dialect,
      TableRef table,
      ComparedShape shape,
      JdbcRowHasher.Side side,
      String key)
      throws SQLException {
    Map<String, ColumnType> types = TableCatalog.describe(connection, dialect, table);
    List<String> keyColumns =
        shape.keyColumns().stream()
            .map(c -> side == JdbcRowHasher.Side.SOURCE ? c.sourceName() : c.targetName())
            .toList();
    KeyCodec codec = new KeyCodec(shape.keyColumns().stream().map(HashedColumn::type).toList());
    JdbcKeyReader keys = new JdbcKeyReader(dialect, codec, keyColumns, types, 1);
    JdbcRowHasher hasher =
        new JdbcRowHasher(
            shape.plan(),
            side,
            dialect,
            types,
            shape.format(),
            HashFunction.messageDigest(shape.hashFunction()),
            keyColumns.size() + 1);
    KeyBinder binder = new KeyBinder(dialect, codec, keyColumns, types);
    List<String> select = new ArrayList<>(keys.selectList());
    select.addAll(hasher.selectList());
    String sql =
        dialect.selectByKeysSql(table, select, binder.keyColumns(), binder.placeholders(), 1);
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement, 1, key);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          // a collation that ignores case or accents may return another key's row
          if (keys.encode(rows).equals(key)) {
            Object[] values = hasher.values(rows);
            return new SideRow(true, hasher.columnTexts(values), hasher.digest(values));
          }
        }
      }
    }
    return ABSENT;
  }
}
