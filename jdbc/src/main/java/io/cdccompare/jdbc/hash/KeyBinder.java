package io.cdccompare.jdbc.hash;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Binds an encoded key ({@link KeyCodec}) as parameters compared with the key columns of one side:
 * the placeholders come from the dialect's column access (e.g. {@code FROM_UNIXTIME(?)} for a
 * MariaDB {@code TIMESTAMP}), the values from {@link KeyCodec#decode}. Immutable.
 */
public final class KeyBinder {

  private final Dialect dialect;
  private final KeyCodec codec;
  private final List<String> keyColumns;
  private final List<ColumnType> keyTypes;

  /**
   * @param keyColumns the key columns' names on this side, in key order
   * @param physicalTypes this side's column name → physical type
   */
  public KeyBinder(
      Dialect dialect,
      KeyCodec codec,
      List<String> keyColumns,
      Map<String, ColumnType> physicalTypes) {
    if (keyColumns.size() != codec.keyTypes().size()) {
      throw new IllegalArgumentException("one key column per key type");
    }
    this.dialect = dialect;
    this.codec = codec;
    this.keyColumns = List.copyOf(keyColumns);
    this.keyTypes = new ArrayList<>();
    for (String column : keyColumns) {
      ColumnType type = physicalTypes.get(column);
      if (type == null) {
        throw new IllegalArgumentException("key column '" + column + "' does not exist");
      }
      keyTypes.add(type);
    }
  }

  public List<String> keyColumns() {
    return keyColumns;
  }

  /** The placeholders, in key order. */
  public List<String> placeholders() {
    List<String> placeholders = new ArrayList<>(keyColumns.size());
    for (int i = 0; i < keyColumns.size(); i++) {
      placeholders.add(dialect.access(keyColumns.get(i), keyTypes.get(i)).placeholder());
    }
    return placeholders;
  }

  /**
   * Binds the key as one bound of a range ({@code KeysetQueries}): its values in the dialect's
   * order for a bound ({@link Dialect#boundColumns}), from parameter {@code firstIndex} on; returns
   * the next index.
   */
  public int bindBound(PreparedStatement statement, int firstIndex, String encodedKey)
      throws SQLException {
    List<Object> values = codec.decode(encodedKey);
    int[] columns = dialect.boundColumns(values.size());
    for (int i = 0; i < columns.length; i++) {
      dialect.bind(statement, firstIndex + i, values.get(columns[i]), keyTypes.get(columns[i]));
    }
    return firstIndex + columns.length;
  }

  /** Binds the key's values from parameter {@code firstIndex} on; returns the next index. */
  public int bind(PreparedStatement statement, int firstIndex, String encodedKey)
      throws SQLException {
    List<Object> values = codec.decode(encodedKey);
    for (int i = 0; i < values.size(); i++) {
      dialect.bind(statement, firstIndex + i, values.get(i), keyTypes.get(i));
    }
    return firstIndex + values.size();
  }
}
