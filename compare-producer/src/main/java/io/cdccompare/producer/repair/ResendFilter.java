package io.cdccompare.producer.repair;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import java.util.List;

/**
 * The SQL condition that selects exactly a list of keys of one table, for the filter of Debezium's
 * incremental snapshot: {@code ("a", "b") IN ((CAST(E'1' AS integer), CAST(E'x' AS text)), …)}.
 * Each key is decoded from its {@link KeyCodec} text and each value written as a literal cast to
 * the column's own type without its modifier ({@code format_type(atttypid, NULL)}: a cast to {@code
 * varchar(3)} or {@code numeric(5,2)} would cut or round a value into another key), so the
 * comparison is type-exact and the primary key's index serves it.
 *
 * <p>Literals are escape strings ({@code E'…'}, a quote and a backslash doubled), which mean the
 * same whatever the server's {@code standard_conforming_strings}. Canonical key texts PostgreSQL's
 * input does not read as they are are converted: a {@code bytea} key is hex without {@code \x}
 * ({@code decode(E'…', 'hex')}), a {@code timestamptz} key is UTC without an offset ({@code +00} is
 * added), and a date before year 1 is ISO's year 0 or signed year, written with an era for
 * PostgreSQL ({@code 0000-01-01} is {@code 0001-01-01 BC}, {@code -0043-03-15} is {@code 0044-03-15
 * BC}; {@code +10000-01-01} loses its sign). A key text that cannot be written safely — a NUL
 * character, a lone surrogate, the wrong number of values — is refused naming the table and the
 * key.
 *
 * <p>Pure and thread-safe.
 */
public final class ResendFilter {

  /**
   * A key column: its name, its database-independent type, and its SQL type without modifier.
   *
   * @param sqlType what {@code format_type(atttypid, NULL)} gives, e.g. {@code integer}
   */
  public record KeyColumn(String name, LogicalType type, String sqlType) {
    public KeyColumn {
      if (name == null || name.isEmpty() || sqlType == null || sqlType.isBlank()) {
        throw new IllegalArgumentException("a key column needs a name and an SQL type");
      }
      if (type == null || type == LogicalType.JSON) {
        throw new IllegalArgumentException("key column " + name + " has no key type");
      }
    }
  }

  private ResendFilter() {}

  /**
   * The condition selecting these keys.
   *
   * @param keys canonical keys ({@link KeyCodec} texts), at least one
   * @throws IllegalArgumentException naming the table and the key for a key that cannot be written
   */
  public static String of(TableName table, List<KeyColumn> columns, List<String> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("table " + table + ": no key to re-send");
    }
    KeyCodec codec = new KeyCodec(columns.stream().map(KeyColumn::type).toList());
    StringBuilder sql = new StringBuilder("(");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(quoteIdentifier(columns.get(i).name()));
    }
    sql.append(") IN (");
    for (int k = 0; k < keys.size(); k++) {
      String key = keys.get(k);
      List<String> texts = decode(table, codec, key);
      sql.append(k == 0 ? "(" : ", (");
      for (int i = 0; i < texts.size(); i++) {
        sql.append(i == 0 ? "" : ", ").append(value(table, key, columns.get(i), texts.get(i)));
      }
      sql.append(')');
    }
    return sql.append(')').toString();
  }

  private static List<String> decode(TableName table, KeyCodec codec, String key) {
    try {
      return codec.decodeTexts(key);
    } catch (IllegalArgumentException e) {
      throw refused(table, key, e.getMessage());
    }
  }

  /** One key value as a typed literal. */
  static String value(TableName table, String key, KeyColumn column, String text) {
    requireWritable(table, key, text);
    return switch (column.type()) {
      case BINARY -> "decode(" + literal(hex(table, key, text)) + ", 'hex')";
      case TIMESTAMP_TZ -> cast(isInfinity(text) ? text : era(text, true), column);
      case DATE, TIMESTAMP -> cast(isInfinity(text) ? text : era(text, false), column);
      default -> cast(text, column);
    };
  }

  private static String cast(String text, KeyColumn column) {
    return "CAST(" + literal(text) + " AS " + column.sqlType() + ")";
  }

  /** An escape string literal: the same text whatever {@code standard_conforming_strings} is. */
  static String literal(String text) {
    return "E'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  static String quoteIdentifier(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static boolean isInfinity(String text) {
    return text.equals("Infinity") || text.equals("-Infinity");
  }

  /**
   * A canonical date or timestamp in PostgreSQL's input: an ISO year below 1 becomes an era ({@code
   * 0000} is {@code 0001 BC}, {@code -0043} is {@code 0044 BC}), {@code +10000} is {@code 10000},
   * and a timestamp with time zone gets its UTC offset.
   */
  private static String era(String text, boolean utc) {
    String zone = utc ? "+00" : "";
    boolean negative = text.startsWith("-");
    int from = negative || text.startsWith("+") ? 1 : 0;
    int dash = text.indexOf('-', from);
    long isoYear = Long.parseLong(text.substring(from, dash));
    if (negative) {
      isoYear = -isoYear;
    }
    if (isoYear >= 1) {
      return text.substring(from) + zone;
    }
    return String.format("%04d", 1 - isoYear) + text.substring(dash) + zone + " BC";
  }

  private static String hex(TableName table, String key, String text) {
    if (text.length() % 2 != 0 || !text.chars().allMatch(ResendFilter::isHexDigit)) {
      throw refused(table, key, "a bytea key value must be hex digits, was '" + text + "'");
    }
    return text;
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static void requireWritable(TableName table, String key, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\0') {
        throw refused(table, key, "a NUL character cannot be written in PostgreSQL");
      }
      if (Character.isHighSurrogate(c)
          && (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1)))) {
        throw refused(table, key, "a lone UTF-16 surrogate is no character");
      }
      if (Character.isLowSurrogate(c)
          && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)))) {
        throw refused(table, key, "a lone UTF-16 surrogate is no character");
      }
    }
  }

  private static IllegalArgumentException refused(TableName table, String key, String why) {
    return new IllegalArgumentException(
        "table " + table + ": key '" + printable(key) + "' cannot be re-sent: " + why);
  }

  /** The key for a message: control characters and surrogates shown as {@code \\uXXXX}. */
  private static String printable(String key) {
    StringBuilder out = new StringBuilder();
    for (char c : key.toCharArray()) {
      if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
