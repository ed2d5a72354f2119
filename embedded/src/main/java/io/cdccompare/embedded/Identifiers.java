package io.cdccompare.embedded;

/** Quoting of database and user names the environment creates on request. */
final class Identifiers {
  private Identifiers() {}

  /** Quotes an identifier with the given quote character, doubling any inside it. */
  static String quote(String name, char quote) {
    if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("invalid identifier: '" + name + "'");
    }
    String q = String.valueOf(quote);
    return q + name.replace(q, q + q) + q;
  }
}
