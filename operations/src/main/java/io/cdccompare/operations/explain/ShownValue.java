package io.cdccompare.operations.explain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How a canonical text is shown to a person: safe on a terminal and in a page. Control characters
 * (and the invisible ones that reorder text) are escaped as backslash n, t or r, a doubled
 * backslash, or backslash u and the code point in braces; a value longer than {@value #MAX_CHARS}
 * characters is cut, with its length; NULL is {@code NULL} and the empty string {@code ''}. A
 * masked value is shown only as a hash of its text ({@code sha256:} and 16 hex digits), so equal
 * values still look equal. Binary values need nothing more: their canonical text is already
 * lowercase hex.
 */
public final class ShownValue {
  /** Characters of a value shown at most; a longer one is cut and its length said. */
  public static final int MAX_CHARS = 80;

  private ShownValue() {}

  /**
   * @param text a canonical text, {@code null} for NULL
   * @param masked whether the column is in {@code explain.mask}
   */
  public static String of(String text, boolean masked) {
    if (text == null) {
      return "NULL";
    }
    if (masked) {
      return "sha256:" + sha256(text).substring(0, 16);
    }
    if (text.isEmpty()) {
      return "''";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 16);
    int shown = 0;
    int i = 0;
    while (i < text.length() && shown < MAX_CHARS) {
      int cp = text.codePointAt(i);
      escape(cp, out);
      i += Character.charCount(cp);
      shown++;
    }
    if (i < text.length()) {
      out.append("… (").append(text.codePointCount(0, text.length())).append(" chars)");
    }
    return out.toString();
  }

  private static void escape(int cp, StringBuilder out) {
    switch (cp) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case '\\' -> out.append("\\\\");
      default -> {
        if (invisible(cp)) {
          out.append("\\u{").append(String.format("%04X", cp)).append('}');
        } else {
          out.appendCodePoint(cp);
        }
      }
    }
  }

  /** Control characters, line and paragraph separators, and the bidirectional controls. */
  private static boolean invisible(int cp) {
    return Character.isISOControl(cp)
        || cp == 0x2028
        || cp == 0x2029
        || cp == 0x200E
        || cp == 0x200F
        || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2066 && cp <= 0x2069)
        || cp == 0xFEFF;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
