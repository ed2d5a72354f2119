package io.cdccompare.jdbc.sql;

import io.cdccompare.core.rowhash.LogicalType;

/**
 * How a dialect reads and binds a column of one physical type.
 *
 * @param defaultType the logical type of such a column unless the configuration declares another
 * @param selectFormat the select-list expression, {@code %s} standing for the quoted column (e.g.
 *     {@code UNIX_TIMESTAMP(%s)} for a MariaDB {@code TIMESTAMP})
 * @param reader how to read the selected expression
 * @param placeholder the bind placeholder when the column is compared with a value (e.g. {@code
 *     FROM_UNIXTIME(?)})
 */
public record ColumnAccess(
    LogicalType defaultType, String selectFormat, ValueReader reader, String placeholder) {

  public ColumnAccess {
    if (defaultType == null || reader == null) {
      throw new IllegalArgumentException("a column access needs a type and a reader");
    }
    if (!selectFormat.contains("%s") || !placeholder.contains("?")) {
      throw new IllegalArgumentException("select format needs %s and placeholder needs ?");
    }
  }

  static ColumnAccess plain(LogicalType type, ValueReader reader) {
    return new ColumnAccess(type, "%s", reader, "?");
  }

  public String selectExpression(String quotedColumn) {
    return String.format(selectFormat, quotedColumn);
  }
}
