package io.cdccompare.core.rowhash;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.UUID;

/**
 * Canonical text of character, binary and UUID values. Character values lose their trailing blanks
 * (U+0020 only; a tab or a no-break space counts) and keep everything else: leading blanks, case,
 * accents. No Unicode normalisation is applied, so a precomposed {@code é} and {@code e} followed
 * by a combining acute accent are different values, as they are in both databases.
 */
final class TextValues {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private TextValues() {}

  static String text(Object value) {
    if (value instanceof String text) {
      return stripTrailingBlanks(text);
    }
    throw CanonicalValues.unsupported(LogicalType.TEXT, value);
  }

  static String stripTrailingBlanks(String text) {
    int end = text.length();
    while (end > 0 && text.charAt(end - 1) == ' ') {
      end--;
    }
    return end == text.length() ? text : text.substring(0, end);
  }

  static String binary(Object value) {
    if (value instanceof byte[] bytes) {
      return hex(bytes, 0, bytes.length);
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.slice();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      return hex(bytes, 0, bytes.length);
    }
    throw CanonicalValues.unsupported(LogicalType.BINARY, value);
  }

  static String hex(byte[] bytes, int offset, int length) {
    char[] out = new char[length * 2];
    for (int i = 0; i < length; i++) {
      int b = bytes[offset + i] & 0xFF;
      out[2 * i] = HEX[b >>> 4];
      out[2 * i + 1] = HEX[b & 0x0F];
    }
    return new String(out);
  }

  /**
   * A UUID from a {@link UUID}, from 16 bytes (big-endian, as in a MariaDB {@code BINARY(16)}) or
   * from text: text in the 8-4-4-4-12 hex form is lowercased; any other text is kept as a character
   * value so that it shows up as a difference rather than failing the run.
   */
  static String uuid(Object value) {
    if (value instanceof UUID uuid) {
      return uuid.toString();
    }
    if (value instanceof String text) {
      String stripped = stripTrailingBlanks(text);
      return isUuidText(stripped) ? stripped.toLowerCase(Locale.ROOT) : stripped;
    }
    if (value instanceof byte[] bytes && bytes.length == 16) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      return new UUID(buffer.getLong(), buffer.getLong()).toString();
    }
    throw CanonicalValues.unsupported(LogicalType.UUID, value);
  }

  static boolean isUuidText(String text) {
    if (text.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = text.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : Character.digit(c, 16) < 0 || c > 'f') {
        return false;
      }
    }
    return true;
  }
}
