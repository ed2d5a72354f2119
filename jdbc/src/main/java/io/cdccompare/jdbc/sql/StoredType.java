package io.cdccompare.jdbc.sql;

/**
 * The database-neutral types of cdc-compare's own tables in a target (checkpoints, verdicts); each
 * dialect names them ({@link Dialect#createTableIfMissingSql}) and says which physical type they
 * become ({@link Dialect#storedColumnType}).
 */
public enum StoredType {
  /** Character data of at most {@link ColumnDefinition#length()} characters, compared exactly. */
  TEXT,
  /** Character data of any length (a JSON document). */
  LONG_TEXT,
  INTEGER,
  BIGINT,
  /** An instant, to the microsecond, held in UTC. */
  TIMESTAMP_UTC
}
