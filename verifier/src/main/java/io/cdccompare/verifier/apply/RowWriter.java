package io.cdccompare.verifier.apply;

import io.cdccompare.jdbc.db.TargetCatalog;
import io.cdccompare.jdbc.db.TargetSchemaException;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.jdbc.sql.UnsupportedColumnTypeException;
import io.cdccompare.verifier.apply.RowChange.Operation;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes row changes on the caller's connection and transaction, in stream order, as JDBC
 * batches: consecutive changes that use the same statement (same table, operation and columns) go
 * in one batch, and a batch is sent before a change using another statement is queued, so a later
 * change of a key never overtakes an earlier one. Upserts bind every column with the dialect's
 * write placeholder and {@link Dialect#bindWrite}; deletes bind the decoded key ({@link
 * KeyBinder}).
 *
 * <p>Not thread-safe; one {@link #write} call at a time.
 */
final class RowWriter {

  private final Connection connection;
  private final Dialect dialect;
  private final TargetCatalog catalog;
  private final Map<TableRef, TargetTable> tables;

  RowWriter(
      Connection connection,
      Dialect dialect,
      TargetCatalog catalog,
      Map<TableRef, TargetTable> tables) {
    this.connection = connection;
    this.dialect = dialect;
    this.catalog = catalog;
    this.tables = Map.copyOf(tables);
  }

  /** Writes the changes in order; on an error, what was written stays for the caller to undo. */
  void write(List<RowChange> changes) throws SQLException {
    Map<String, Statement> statements = new HashMap<>();
    Statement current = null;
    try {
      for (RowChange change : changes) {
        Statement next = statementFor(change, statements);
        if (current != null && current != next) {
          current.flush();
        }
        current = next;
        current.add(change);
      }
      if (current != null) {
        current.flush();
      }
    } finally {
      for (Statement statement : statements.values()) {
        statement.close();
      }
    }
  }

  private Statement statementFor(RowChange change, Map<String, Statement> statements)
      throws SQLException {
    TargetTable table = tables.get(change.table());
    if (table == null) {
      throw new IllegalArgumentException(
          "change at " + change.position() + " is for table " + change.table() + ", not applied");
    }
    Map<String, ColumnType> types = catalog.require(table.table(), table.keyColumns());
    if (change.operation() == Operation.DELETE) {
      String id = "D " + table.table();
      Statement statement = statements.get(id);
      if (statement == null) {
        KeyBinder binder = new KeyBinder(dialect, table.keyCodec(), table.keyColumns(), types);
        String sql =
            dialect.deleteByKeySql(table.table(), table.keyColumns(), binder.placeholders());
        statement = new Statement(table, connection.prepareStatement(sql), List.of(), binder);
        statements.put(id, statement);
      }
      return statement;
    }
    List<String> columns = upsertColumns(change, table, types);
    String id = "U " + table.table() + " " + columns;
    Statement statement = statements.get(id);
    if (statement == null) {
      List<String> placeholders = new ArrayList<>(columns.size());
      for (String column : columns) {
        placeholders.add(placeholder(column, types.get(column)));
      }
      String sql = dialect.upsertSql(table.table(), columns, placeholders, table.keyColumns());
      statement = new Statement(table, connection.prepareStatement(sql), columns, null);
      statements.put(id, statement);
    }
    return statement;
  }

  /** The change's columns in table order; every one exists and every key column is given. */
  private List<String> upsertColumns(
      RowChange change, TargetTable table, Map<String, ColumnType> types) {
    for (String column : change.values().keySet()) {
      if (!types.containsKey(column)) {
        throw TargetSchemaException.missingColumn(dialect.name(), table.table(), column);
      }
    }
    for (String key : table.keyColumns()) {
      if (change.values().get(key) == null) {
        throw new IllegalArgumentException(
            "change at "
                + change.position()
                + " for table "
                + table.table().table()
                + " has no value for key column '"
                + key
                + "'");
      }
    }
    List<String> columns = new ArrayList<>(change.values().size());
    for (String column : types.keySet()) {
      if (change.values().containsKey(column)) {
        columns.add(column);
      }
    }
    return columns;
  }

  /**
   * The column's write placeholder; a type that is only applied, never compared, takes {@code ?}.
   */
  private String placeholder(String column, ColumnType type) {
    try {
      return dialect.access(column, type).placeholder();
    } catch (UnsupportedColumnTypeException e) {
      return "?";
    }
  }

  /** One prepared statement and the changes queued on it. */
  private final class Statement {
    private final TargetTable table;
    private final PreparedStatement prepared;
    private final List<String> columns;
    private final KeyBinder keyBinder;
    private RecordPosition first;
    private RecordPosition last;

    Statement(
        TargetTable table, PreparedStatement prepared, List<String> columns, KeyBinder keyBinder) {
      this.table = table;
      this.prepared = prepared;
      this.columns = columns;
      this.keyBinder = keyBinder;
    }

    void add(RowChange change) throws SQLException {
      try {
        if (keyBinder != null) {
          keyBinder.bind(prepared, 1, change.key());
        } else {
          Map<String, ColumnType> types = catalog.describe(table.table());
          for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            dialect.bindWrite(
                prepared, i + 1, column, change.values().get(column), types.get(column));
          }
        }
      } catch (IllegalArgumentException | ClassCastException e) {
        throw new IllegalArgumentException(
            "change at "
                + change.position()
                + " for table "
                + table.table().table()
                + " cannot be bound: "
                + e.getMessage(),
            e);
      }
      prepared.addBatch();
      if (first == null) {
        first = change.position();
      }
      last = change.position();
    }

    void flush() throws SQLException {
      if (first == null) {
        return;
      }
      try {
        prepared.executeBatch();
      } catch (SQLException e) {
        throw new SQLException(
            "writing table "
                + table.table().table()
                + " failed for the changes at "
                + first
                + " to "
                + last
                + ": "
                + reason(e),
            e.getSQLState(),
            e.getErrorCode(),
            e);
      } finally {
        first = null;
        last = null;
      }
    }

    void close() throws SQLException {
      prepared.close();
    }
  }

  /**
   * The server's reason without the statement: PostgreSQL's batch error quotes the whole statement
   * with its bound values, which are row data and must not be copied into messages and logs.
   */
  private static String reason(SQLException e) {
    if (e instanceof BatchUpdateException batch) {
      if (batch.getNextException() != null) {
        return batch.getNextException().getMessage();
      }
      if (batch.getCause() instanceof SQLException cause) {
        return cause.getMessage();
      }
    }
    return e.getMessage();
  }
}
