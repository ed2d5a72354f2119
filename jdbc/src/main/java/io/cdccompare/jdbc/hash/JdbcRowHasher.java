package io.cdccompare.jdbc.hash;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.RowHash;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.jdbc.sql.ColumnAccess;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.ValueReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The row hash of rows read over JDBC: for each column of a {@link HashPlan}, the dialect's {@link
 * ColumnAccess} for the column's physical type on this side says what to select and how to read it;
 * the core {@link RowHasher} makes the canonical text (by the plan's logical type) and hashes it.
 *
 * <p>The query must select {@link #selectList()} in order, starting at column {@code firstColumn}.
 * Not thread-safe (one per scan), like the {@link RowHasher} it holds.
 */
public final class JdbcRowHasher {

  /** Which name of a {@link HashedColumn} this side reads. */
  public enum Side {
    SOURCE,
    TARGET
  }

  private final List<String> selectList;
  private final ValueReader[] readers;
  private final RowHasher hasher;
  private final Object[] values;
  private final int firstColumn;

  /**
   * @param physicalTypes this side's column name → physical type ({@link TableCatalog#describe})
   * @param firstColumn the 1-based result set column of the first hashed column
   * @throws IllegalArgumentException if a column is missing on this side
   */
  public JdbcRowHasher(
      HashPlan plan,
      Side side,
      Dialect dialect,
      Map<String, ColumnType> physicalTypes,
      CanonicalFormat format,
      HashFunction hashFunction,
      int firstColumn) {
    List<HashedColumn> columns = plan.columns();
    this.selectList = new ArrayList<>(columns.size());
    this.readers = new ValueReader[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      HashedColumn column = columns.get(i);
      String name = side == Side.SOURCE ? column.sourceName() : column.targetName();
      ColumnType type = physicalTypes.get(name);
      if (type == null) {
        throw new IllegalArgumentException(
            "tables["
                + plan.table()
                + "].columns["
                + column.sourceName()
                + "]: column '"
                + name
                + "' does not exist on the "
                + dialect.name()
                + " "
                + side.name().toLowerCase(java.util.Locale.ROOT)
                + " side");
      }
      ColumnAccess access = dialect.access(name, type);
      selectList.add(access.selectExpression(dialect.quote(name)));
      readers[i] = access.reader();
    }
    this.hasher = new RowHasher(columns, format, hashFunction);
    this.values = new Object[columns.size()];
    this.firstColumn = firstColumn;
  }

  /** The select-list expressions, in plan order. */
  public List<String> selectList() {
    return List.copyOf(selectList);
  }

  /** The hash of the result set's current row. */
  public RowHash hash(ResultSet row) throws SQLException {
    return hasher.hash(read(row));
  }

  /** The hash of the result set's current row as raw bytes ({@link RowHasher#digest}). */
  public byte[] digest(ResultSet row) throws SQLException {
    return hasher.digest(read(row));
  }

  /**
   * The current row's hashed values, in plan order (a new array), to hash later with {@link
   * #digest(Object[])}: reading them is safe on one thread while another hashes rows read before.
   */
  public Object[] values(ResultSet row) throws SQLException {
    Object[] copy = new Object[readers.length];
    for (int i = 0; i < readers.length; i++) {
      copy[i] = readers[i].read(row, firstColumn + i);
    }
    return copy;
  }

  /**
   * The hash of values read by {@link #values} as raw bytes. Uses the one {@link RowHasher}: call
   * it (and the other hashing methods) from one thread at a time.
   */
  public byte[] digest(Object[] values) {
    return hasher.digest(values);
  }

  /**
   * Each column's canonical text after its functions ({@link RowHasher#columnText}), in plan order,
   * {@code null} for NULL: what {@link #digest(Object[])} joins and hashes, column by column, for
   * explaining a difference (never logged: it holds data).
   */
  public List<String> columnTexts(Object[] values) {
    List<String> texts = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      texts.add(hasher.columnText(i, values[i]));
    }
    return texts;
  }

  /** The canonical text of the current row, for diagnostics (never logged: it holds data). */
  public String canonicalText(ResultSet row) throws SQLException {
    return hasher.canonicalText(read(row));
  }

  private Object[] read(ResultSet row) throws SQLException {
    for (int i = 0; i < readers.length; i++) {
      values[i] = readers[i].read(row, firstColumn + i);
    }
    return values;
  }
}
