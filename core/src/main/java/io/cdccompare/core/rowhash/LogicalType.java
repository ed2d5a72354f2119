package io.cdccompare.core.rowhash;

/**
 * The database-independent type of a compared column. It decides how a value is written as
 * canonical text and which column functions apply; each database adapter maps its own physical
 * types onto it (PostgreSQL {@code int4} and MariaDB {@code INT} are both {@link #INTEGER}).
 *
 * <p>{@link #REAL} and {@link #DOUBLE} differ on purpose: a single-precision value is written as
 * the shortest decimal that reads back to the same {@code float}, so {@code 0.1f} is {@code 0.1}
 * and not {@code 0.10000000149011612}.
 */
public enum LogicalType {
  SMALLINT(TypeFamily.INTEGER),
  INTEGER(TypeFamily.INTEGER),
  BIGINT(TypeFamily.INTEGER),
  DECIMAL(TypeFamily.DECIMAL),
  REAL(TypeFamily.FLOAT),
  DOUBLE(TypeFamily.FLOAT),
  BOOLEAN(TypeFamily.BOOLEAN),
  CHAR(TypeFamily.TEXT),
  VARCHAR(TypeFamily.TEXT),
  TEXT(TypeFamily.TEXT),
  BINARY(TypeFamily.BINARY),
  UUID(TypeFamily.UUID),
  JSON(TypeFamily.JSON),
  DATE(TypeFamily.TEMPORAL),
  TIME(TypeFamily.TEMPORAL),
  TIMESTAMP(TypeFamily.TEMPORAL),
  /** A timestamp with time zone: an instant, written in UTC. */
  TIMESTAMP_TZ(TypeFamily.TEMPORAL);

  private final TypeFamily family;

  LogicalType(TypeFamily family) {
    this.family = family;
  }

  public TypeFamily family() {
    return family;
  }
}
