package io.cdccompare.core.rowhash;

/**
 * The family of a {@link LogicalType}: types of one family share their canonical text rules and the
 * column functions that apply to them.
 */
public enum TypeFamily {
  /** Whole numbers, written in plain decimal. */
  INTEGER,
  /** Exact decimals, plain notation without trailing fractional zeros. */
  DECIMAL,
  /** Binary floating point, shortest round-trip decimal. */
  FLOAT,
  /** True/false written {@code 1}/{@code 0}. */
  BOOLEAN,
  /** Character data, trailing blanks ignored. */
  TEXT,
  /** Byte strings, lowercase hex. */
  BINARY,
  /** UUIDs, lowercase with dashes. */
  UUID,
  /** JSON documents, keys sorted, no insignificant white space. */
  JSON,
  /** Calendar dates, times of day and timestamps. */
  TEMPORAL;

  /** Whether {@code round(n)} and the other numeric functions apply. */
  public boolean isNumeric() {
    return this == INTEGER || this == DECIMAL || this == FLOAT;
  }
}
