package io.cdccompare.jdbc.sql;

import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The statements of a table that cdc-compare keeps on a target for itself ({@link CheckpointSql},
 * {@link VerdictSql}): where the table lives, how it is created, and the statements that read one
 * row by its primary key or write every column of one row. Built apart from running them;
 * immutable.
 */
public abstract class BookkeepingSql {

  protected final Dialect dialect;
  private final TableRef table;
  private final List<ColumnDefinition> columns;
  private final List<String> primaryKey;

  /**
   * @param schema the schema (PostgreSQL) or database (MariaDB) holding the table; {@code null} for
   *     the connection's current one
   */
  BookkeepingSql(
      Dialect dialect,
      String schema,
      String name,
      List<ColumnDefinition> columns,
      List<String> primaryKey) {
    this.dialect = dialect;
    this.table = new TableRef(schema, name);
    this.columns = columns;
    this.primaryKey = primaryKey;
  }

  public TableRef table() {
    return table;
  }

  public String createTable() {
    return dialect.createTableIfMissingSql(table, columns, primaryKey);
  }

  /** {@code SELECT} of {@code selected} from the row whose primary key is bound in order. */
  final String selectByKey(List<ColumnDefinition> selected) {
    return "SELECT "
        + selected.stream().map(c -> dialect.quote(c.name())).collect(Collectors.joining(", "))
        + " FROM "
        + dialect.qualified(table)
        + " WHERE "
        + dialect.keyEquals(primaryKey, Collections.nCopies(primaryKey.size(), "?"));
  }

  /** Every column's name, in table order. */
  final List<String> columnNames() {
    return columns.stream().map(ColumnDefinition::name).toList();
  }

  /** One parameter per column, in table order. */
  final List<String> columnParameters() {
    return Collections.nCopies(columns.size(), "?");
  }
}
