package io.cdccompare.jdbc.db;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.jdbc.sql.TableRef;

/**
 * A table or column that cdc-compare needs does not exist on the target: the table cannot be
 * applied or verified ({@link ErrorCode#UNVERIFIABLE}) until the target's schema is fixed. The
 * message and the accessors name the table and, for a column, the column.
 */
public final class TargetSchemaException extends CdcCompareException {
  private static final long serialVersionUID = 1L;

  private final transient TableRef table;
  private final String column;

  private TargetSchemaException(TableRef table, String column, String message, Throwable cause) {
    super(ErrorCode.UNVERIFIABLE, message, cause);
    this.table = table;
    this.column = column;
  }

  public static TargetSchemaException missingTable(
      String dialect, TableRef table, Throwable cause) {
    return new TargetSchemaException(
        table, null, "target table " + name(table) + " does not exist on " + dialect, cause);
  }

  public static TargetSchemaException missingColumn(String dialect, TableRef table, String column) {
    return new TargetSchemaException(
        table,
        column,
        "target table " + name(table) + " has no column '" + column + "' on " + dialect,
        null);
  }

  public TableRef table() {
    return table;
  }

  /** The missing column, or {@code null} when the whole table is missing. */
  public String column() {
    return column;
  }

  private static String name(TableRef table) {
    return table.schema() == null ? table.table() : table.schema() + "." + table.table();
  }
}
