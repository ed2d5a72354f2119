package io.cdccompare.jdbc.hash;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.jdbc.sql.ColumnAccess;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.ValueReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads the key columns of the current row and encodes them with a {@link KeyCodec}: the text that
 * becomes the Kafka record key of the row. The query must select {@link #selectList()} in order
 * from column {@code firstColumn} on. Immutable; safe to share if the codec is.
 */
public final class JdbcKeyReader {

  private final KeyCodec codec;
  private final List<String> selectList = new ArrayList<>();
  private final ValueReader[] readers;
  private final int firstColumn;

  public JdbcKeyReader(
      Dialect dialect,
      KeyCodec codec,
      List<String> keyColumns,
      Map<String, ColumnType> physicalTypes,
      int firstColumn) {
    if (keyColumns.size() != codec.keyTypes().size()) {
      throw new IllegalArgumentException("one key column per key type");
    }
    this.codec = codec;
    this.readers = new ValueReader[keyColumns.size()];
    for (int i = 0; i < keyColumns.size(); i++) {
      String column = keyColumns.get(i);
      ColumnType type = physicalTypes.get(column);
      if (type == null) {
        throw new IllegalArgumentException("key column '" + column + "' does not exist");
      }
      ColumnAccess access = dialect.access(column, type);
      selectList.add(access.selectExpression(dialect.quote(column)));
      readers[i] = access.reader();
    }
    this.firstColumn = firstColumn;
  }

  public List<String> selectList() {
    return List.copyOf(selectList);
  }

  /** The encoded key of the current row. */
  public String encode(ResultSet row) throws SQLException {
    return encode(values(row));
  }

  /** The current row's key values, in key order (a new array): to encode later, on any thread. */
  public Object[] values(ResultSet row) throws SQLException {
    Object[] values = new Object[readers.length];
    for (int i = 0; i < readers.length; i++) {
      values[i] = readers[i].read(row, firstColumn + i);
    }
    return values;
  }

  /** The encoded key of key values read by {@link #values}. */
  public String encode(Object[] values) {
    return codec.encode(Arrays.asList(values));
  }
}
