package io.cdccompare.core.rowhash;

import io.cdccompare.core.rowhash.function.ColumnFunction;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.util.List;

/**
 * Computes the row hash of DESIGN.md section 3.1: each value's canonical text ({@link
 * CanonicalValues}), the column's functions applied to it, the texts joined as the {@link
 * CanonicalFormat} says, and the UTF-8 bytes hashed.
 *
 * <p>Values are given in plan order as the Java values an adapter read (a JDBC getter, a Connect
 * struct field); {@code null} is SQL NULL. A hasher reuses its buffers: it is <b>not
 * thread-safe</b>, use one per thread or scan.
 */
public final class RowHasher {

  private final LogicalType[] types;
  private final ColumnFunction[][] functions;
  private final CanonicalFormat format;
  private final HashFunction.Digest digest;
  private final StringBuilder text = new StringBuilder(256);
  private final Utf8Buffer utf8 = new Utf8Buffer();

  public RowHasher(List<HashedColumn> columns, CanonicalFormat format, HashFunction hashFunction) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a row hash needs at least one column");
    }
    this.types = new LogicalType[columns.size()];
    this.functions = new ColumnFunction[columns.size()][];
    for (int i = 0; i < columns.size(); i++) {
      types[i] = columns.get(i).type();
      functions[i] = columns.get(i).functions().toArray(ColumnFunction[]::new);
    }
    this.format = format;
    this.digest = hashFunction.newDigest();
  }

  /** The default hasher: compatible format, MD5. */
  public static RowHasher compatibleMd5(HashPlan plan) {
    return new RowHasher(plan.columns(), CanonicalFormat.COMPATIBLE, HashFunction.md5());
  }

  public int columnCount() {
    return types.length;
  }

  /** The hash of a row whose values are given in plan order. */
  public RowHash hash(Object... values) {
    write(values);
    utf8.encode(text);
    return RowHash.of(digest.digest(utf8.bytes(), 0, utf8.length()));
  }

  /** The text that {@link #hash} hashes, for diagnostics and tests. */
  public String canonicalText(Object... values) {
    write(values);
    return text.toString();
  }

  /** The canonical text of one column's value after its functions, {@code null} for NULL. */
  public String columnText(int column, Object value) {
    String canonical = CanonicalValues.canonical(types[column], value);
    if (canonical == null) {
      return null;
    }
    for (ColumnFunction function : functions[column]) {
      canonical = function.apply(types[column], canonical);
    }
    return canonical;
  }

  private void write(Object[] values) {
    if (values.length != types.length) {
      throw new IllegalArgumentException(
          "expected " + types.length + " values, got " + values.length);
    }
    text.setLength(0);
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        text.append(',');
      }
      appendValue(columnText(i, values[i]));
    }
  }

  private void appendValue(String canonical) {
    if (format == CanonicalFormat.COMPATIBLE) {
      text.append(canonical == null || canonical.isEmpty() ? "N" : canonical);
      return;
    }
    if (canonical == null) {
      text.append("\\N");
      return;
    }
    for (int i = 0; i < canonical.length(); i++) {
      char c = canonical.charAt(i);
      if (c == '\\' || c == ',') {
        text.append('\\');
      }
      text.append(c);
    }
  }
}
