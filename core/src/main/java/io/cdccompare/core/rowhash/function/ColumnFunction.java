package io.cdccompare.core.rowhash.function;

import io.cdccompare.core.rowhash.LogicalType;

/**
 * A function of a compare task applied to the canonical text of a column value before it is hashed
 * (docs/design.md, "Row hash"; the functions in docs/row-hash.md). Because it works on the
 * canonical text and not on a database value, it gives the same result on every database.
 *
 * <p>Functions never see SQL NULL (NULL stays NULL). A function may return the empty string, which
 * the {@link io.cdccompare.core.rowhash.CanonicalFormat} then writes like any empty value.
 * Implementations are immutable values; {@link #spec()} gives back text that {@link
 * ColumnFunctionParser} parses to an equal function.
 */
public sealed interface ColumnFunction
    permits CaseFunction, TrimFunction, Substr, Replace, Round, Truncate {

  /** The function's name as written in a configuration, e.g. {@code round}. */
  String name();

  /** Whether the function applies to columns of this type. */
  boolean appliesTo(LogicalType type);

  /**
   * Applies the function to a canonical text of a type it {@linkplain #appliesTo applies to}.
   *
   * @param type the column's type (a time and a timestamp are truncated differently)
   * @param canonical the value's canonical text, never null
   */
  String apply(LogicalType type, String canonical);

  /** The configuration text of this function, e.g. {@code substr(1,10)}. */
  String spec();
}
