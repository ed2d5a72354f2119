package io.cdccompare.jdbc;

import java.util.SplittableRandom;

/**
 * Random JSON documents written the way a client might: random white space, key order, number
 * spellings and escapes, so that PostgreSQL's jsonb normalisation and MariaDB's kept text differ.
 */
final class RandomJson {

  private static final String[] KEYS = {"a", "b", "id", "name", "ä", "😀", "x y", "A", ""};
  private static final String[] NUMBERS = {
    "0", "-0", "1.50", "1e2", "-2.5E-3", "12345678901234567890", "3.0"
  };

  private RandomJson() {}

  static String document(SplittableRandom r) {
    StringBuilder out = new StringBuilder();
    value(r, out, 0);
    return out.toString();
  }

  private static void value(SplittableRandom r, StringBuilder out, int depth) {
    int kind = depth > 2 ? 2 + r.nextInt(4) : r.nextInt(6);
    switch (kind) {
      case 0 -> object(r, out, depth);
      case 1 -> array(r, out, depth);
      case 2 -> out.append(NUMBERS[r.nextInt(NUMBERS.length)]);
      case 3 -> string(r, out);
      case 4 -> out.append(r.nextBoolean() ? "true" : "false");
      default -> out.append("null");
    }
  }

  private static void object(SplittableRandom r, StringBuilder out, int depth) {
    out.append('{');
    int members = r.nextInt(4);
    java.util.Set<String> used = new java.util.HashSet<>();
    for (int i = 0; i < members; i++) {
      String key = KEYS[r.nextInt(KEYS.length)];
      if (!used.add(key)) {
        continue;
      }
      if (out.charAt(out.length() - 1) != '{') {
        out.append(',');
      }
      space(r, out);
      out.append('"').append(key).append('"');
      space(r, out);
      out.append(':');
      space(r, out);
      value(r, out, depth + 1);
    }
    out.append('}');
  }

  private static void array(SplittableRandom r, StringBuilder out, int depth) {
    out.append('[');
    int items = r.nextInt(4);
    for (int i = 0; i < items; i++) {
      if (i > 0) {
        out.append(',');
      }
      space(r, out);
      value(r, out, depth + 1);
    }
    out.append(']');
  }

  private static void string(SplittableRandom r, StringBuilder out) {
    out.append('"');
    String text = ParityRows.randomText(r, 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append(r.nextBoolean() ? "\\t" : "\\u0009");
        case 'é' -> out.append(r.nextBoolean() ? "é" : "\\u00e9");
        default -> out.append(c);
      }
    }
    out.append('"');
  }

  private static void space(SplittableRandom r, StringBuilder out) {
    if (r.nextInt(3) == 0) {
      out.append(' ');
    }
  }
}
