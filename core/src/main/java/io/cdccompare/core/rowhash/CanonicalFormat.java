package io.cdccompare.core.rowhash;

/**
 * How the canonical texts of a row are joined before hashing (docs/design.md, "Row hash"; the
 * formats in docs/row-hash.md).
 *
 * <ul>
 *   <li>{@link #COMPATIBLE}: texts joined with {@code ,}; NULL and the empty string are both
 *       written {@code N}. Comparable with other tools using the same rule, with two known
 *       ambiguities: a value {@code N} equals NULL and equals the empty string, and {@code a,b}
 *       followed by {@code c} equals {@code a} followed by {@code b,c}.
 *   <li>{@link #STRICT}: {@code \} and {@code ,} inside a value are escaped as {@code \\} and
 *       {@code \,}, NULL is written {@code \N} (which no escaped value can produce) and the empty
 *       string stays empty. Distinct rows always give distinct texts.
 * </ul>
 */
public enum CanonicalFormat {
  COMPATIBLE,
  STRICT
}
