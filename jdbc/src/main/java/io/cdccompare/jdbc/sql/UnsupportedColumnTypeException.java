package io.cdccompare.jdbc.sql;

/** A column's physical type has no canonical text on this dialect; the message names it. */
public final class UnsupportedColumnTypeException extends IllegalArgumentException {

  public UnsupportedColumnTypeException(String dialect, String column, ColumnType type) {
    super(
        dialect
            + " column "
            + column
            + " has type '"
            + type.typeName()
            + "', which cdc-compare cannot compare (see docs/row-hash.md)");
  }
}
