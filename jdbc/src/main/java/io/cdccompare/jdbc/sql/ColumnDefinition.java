package io.cdccompare.jdbc.sql;

/**
 * A column of one of cdc-compare's own tables in a target.
 *
 * @param length the maximum length of a {@link StoredType#TEXT} column; 0 for other types
 */
public record ColumnDefinition(String name, StoredType type, int length, boolean nullable) {

  public ColumnDefinition {
    if (name == null || name.isBlank() || type == null) {
      throw new IllegalArgumentException("a column needs a name and a type");
    }
    if ((type == StoredType.TEXT) != (length > 0)) {
      throw new IllegalArgumentException(
          "column " + name + ": a length is given for TEXT columns only, and always for them");
    }
  }

  public static ColumnDefinition required(String name, StoredType type) {
    return new ColumnDefinition(name, type, 0, false);
  }

  public static ColumnDefinition optional(String name, StoredType type) {
    return new ColumnDefinition(name, type, 0, true);
  }

  public static ColumnDefinition text(String name, int length) {
    return new ColumnDefinition(name, StoredType.TEXT, length, false);
  }
}
