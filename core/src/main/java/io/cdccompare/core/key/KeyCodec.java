package io.cdccompare.core.key;

import io.cdccompare.core.rowhash.LogicalType;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a row's primary key (one or several columns) as one text, used as the Kafka record key of
 * the row's changes and hash records, and decodes it back into values to bind on either database.
 *
 * <p>Each key value is written as its {@linkplain KeyText canonical key text}; {@code \} and {@code
 * ,} inside a value are escaped as {@code \\} and {@code \,}, and the values are joined with {@code
 * ,}. This escaping applies whatever the row hash format: a composite key must never be ambiguous
 * ({@code ('a,b','c')} and {@code ('a','b,c')} encode to {@code a\,b,c} and {@code a,b\,c}). Key
 * values are never NULL. The number of values is fixed by the key's types, so the empty text
 * decodes to one empty value for a one-column text key.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyCodec {

  private final List<LogicalType> keyTypes;

  /**
   * @param keyTypes the types of the key columns, in key order
   * @throws IllegalArgumentException for an empty key or a type that cannot be a key (JSON)
   */
  public KeyCodec(List<LogicalType> keyTypes) {
    if (keyTypes.isEmpty()) {
      throw new IllegalArgumentException("a key has at least one column");
    }
    for (LogicalType type : keyTypes) {
      if (type == LogicalType.JSON) {
        throw new IllegalArgumentException("a JSON column cannot be part of a compared key");
      }
    }
    this.keyTypes = List.copyOf(keyTypes);
  }

  public List<LogicalType> keyTypes() {
    return keyTypes;
  }

  /** The key of a row from the Java values read for its key columns, in key order. */
  public String encode(List<?> values) {
    requireCount(values.size());
    List<String> texts = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      if (value == null) {
        throw new IllegalArgumentException("key column " + (i + 1) + " is NULL");
      }
      texts.add(KeyText.of(keyTypes.get(i), value));
    }
    return encodeTexts(texts);
  }

  /** The key from canonical key texts, in key order. */
  public String encodeTexts(List<String> texts) {
    requireCount(texts.size());
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < texts.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      String text = texts.get(i);
      for (int c = 0; c < text.length(); c++) {
        char ch = text.charAt(c);
        if (ch == '\\' || ch == ',') {
          out.append('\\');
        }
        out.append(ch);
      }
    }
    return out.toString();
  }

  /**
   * The canonical key texts of an encoded key.
   *
   * @throws IllegalArgumentException if it is not a key of this codec's types
   */
  public List<String> decodeTexts(String encoded) {
    List<String> texts = new ArrayList<>(keyTypes.size());
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '\\') {
        if (i + 1 == encoded.length()) {
          throw new IllegalArgumentException("key ends inside an escape: '" + encoded + "'");
        }
        current.append(encoded.charAt(++i));
      } else if (c == ',') {
        texts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    texts.add(current.toString());
    if (texts.size() != keyTypes.size()) {
      throw new IllegalArgumentException(
          "key '" + encoded + "' has " + texts.size() + " values, expected " + keyTypes.size());
    }
    return texts;
  }

  /**
   * The values to bind for an encoded key, in key order; see {@link KeyText#toBindValue} for the
   * Java type of each.
   */
  public List<Object> decode(String encoded) {
    List<String> texts = decodeTexts(encoded);
    List<Object> values = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      values.add(KeyText.toBindValue(keyTypes.get(i), texts.get(i)));
    }
    return values;
  }

  private void requireCount(int count) {
    if (count != keyTypes.size()) {
      throw new IllegalArgumentException(
          "a key of " + keyTypes.size() + " columns cannot take " + count + " values");
    }
  }
}
