package io.cdccompare.core.rowhash;

import java.util.Arrays;

/**
 * A reusable UTF-8 encoder for row texts: same bytes as {@code String.getBytes(UTF_8)} (an unpaired
 * surrogate becomes {@code ?}), without allocating per row. Not thread-safe.
 */
final class Utf8Buffer {

  private byte[] bytes = new byte[256];
  private int length;

  void encode(CharSequence text) {
    int max = text.length() * 3;
    if (bytes.length < max) {
      bytes = Arrays.copyOf(bytes, Math.max(max, bytes.length * 2));
    }
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes[n++] = (byte) c;
      } else if (c < 0x800) {
        bytes[n++] = (byte) (0xC0 | (c >> 6));
        bytes[n++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(next)) {
          int cp = Character.toCodePoint(c, next);
          i++;
          bytes[n++] = (byte) (0xF0 | (cp >> 18));
          bytes[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          bytes[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          bytes[n++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          bytes[n++] = '?';
        }
      } else {
        bytes[n++] = (byte) (0xE0 | (c >> 12));
        bytes[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        bytes[n++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    length = n;
  }

  byte[] bytes() {
    return bytes;
  }

  int length() {
    return length;
  }
}
