package io.cdccompare.core.rowhash;

import io.cdccompare.core.rowhash.function.ColumnFunction;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Computes the row hash of docs/design.md, "Row hash": each value's canonical text ({@link
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

  /**
   * Columns written straight into the row text: no functions, and a type whose canonical text never
   * holds a separator or backslash (so strict escaping has nothing to do).
   */
  private final boolean[] direct;

  private final CanonicalFormat format;
  private final HashFunction.Digest digest;
  private final StringBuilder text = new StringBuilder(256);

  public RowHasher(List<HashedColumn> columns, CanonicalFormat format, HashFunction hashFunction) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a row hash needs at least one column");
    }
    this.types = new LogicalType[columns.size()];
    this.functions = new ColumnFunction[columns.size()][];
    this.direct = new boolean[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      types[i] = columns.get(i).type();
      functions[i] = columns.get(i).functions().toArray(ColumnFunction[]::new);
      TypeFamily family = types[i].family();
      boolean mayHoldSeparator =
          family == TypeFamily.TEXT || family == TypeFamily.JSON || family == TypeFamily.UUID;
      direct[i] =
          functions[i].length == 0 && (format == CanonicalFormat.COMPATIBLE || !mayHoldSeparator);
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
    return RowHash.of(digest(values));
  }

  /**
   * The hash of a row as the hash function's raw bytes (what {@link #hash} writes as hex), for
   * writers that store hashes in binary.
   */
  public byte[] digest(Object... values) {
    write(values);
    // the JDK's encoder has intrinsics for the common all-Latin-1 text: faster than a char loop
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    return digest.digest(bytes, 0, bytes.length);
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
      if (direct[i]) {
        appendDirect(types[i], values[i]);
      } else {
        appendValue(columnText(i, values[i]));
      }
    }
  }

  /** Same text as {@link #appendValue}, written straight into the row text. */
  private void appendDirect(LogicalType type, Object value) {
    if (value == null) {
      text.append(format == CanonicalFormat.COMPATIBLE ? "N" : "\\N");
      return;
    }
    int start = text.length();
    CanonicalValues.appendTo(type, value, text);
    if (format == CanonicalFormat.COMPATIBLE && text.length() == start) {
      text.append('N');
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
    if (canonical.indexOf(',') < 0 && canonical.indexOf('\\') < 0) {
      text.append(canonical);
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
