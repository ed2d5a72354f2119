package io.cdccompare.source;

import io.cdccompare.core.table.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalog lookups on the source PostgreSQL that the capture and the compare tasks share. Names are
 * bound parameters, never SQL text, so a name trying SQL injection is only a name that is not
 * found.
 */
public final class PgCatalog {
  private PgCatalog() {}

  /** A primary-key column: its name and PostgreSQL type name ({@code int4}, {@code text}…). */
  public record KeyColumn(String name, String typeName) {}

  /** Whether an ordinary or partitioned table of that name exists. */
  public static boolean tableExists(Connection connection, TableName table) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p')")) {
      s.setString(1, table.schema());
      s.setString(2, table.table());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** The table's primary-key columns in key order; empty when it has no primary key. */
  public static List<KeyColumn> primaryKey(Connection connection, TableName table)
      throws SQLException {
    List<KeyColumn> columns = new ArrayList<>();
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT a.attname, t.typname FROM pg_index i"
                + " JOIN pg_class c ON c.oid = i.indrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true"
                + " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
                + " JOIN pg_type t ON t.oid = a.atttypid"
                + " WHERE i.indisprimary AND n.nspname = ? AND c.relname = ? ORDER BY k.ord")) {
      s.setString(1, table.schema());
      s.setString(2, table.table());
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          columns.add(new KeyColumn(rs.getString(1), rs.getString(2)));
        }
      }
    }
    return columns;
  }

  /** A column of a table: its name, type name and whether it is declared NOT NULL. */
  public record Column(String name, String typeName, boolean notNull) {}

  /** A column of the table by name, if it exists. */
  public static java.util.Optional<Column> column(
      Connection connection, TableName table, String name) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT a.attname, t.typname, a.attnotnull FROM pg_attribute a"
                + " JOIN pg_class c ON c.oid = a.attrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " JOIN pg_type t ON t.oid = a.atttypid"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attname = ?"
                + " AND a.attnum > 0 AND NOT a.attisdropped")) {
      s.setString(1, table.schema());
      s.setString(2, table.table());
      s.setString(3, name);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? java.util.Optional.of(new Column(rs.getString(1), rs.getString(2), rs.getBoolean(3)))
            : java.util.Optional.empty();
      }
    }
  }

  /**
   * A unique index of a table: its name, its columns, and whether it is the table's replica
   * identity. Partial and expression indexes are left out: they do not make a key.
   */
  public record UniqueIndex(String name, java.util.Set<String> columns, boolean replicaIdentity) {}

  /** The table's unique indexes on plain columns, without conditions. */
  public static List<UniqueIndex> uniqueIndexes(Connection connection, TableName table)
      throws SQLException {
    List<UniqueIndex> indexes = new ArrayList<>();
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT ic.relname, i.indisreplident, array(SELECT a.attname"
                + " FROM unnest(i.indkey) AS k(attnum)"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum)"
                + " FROM pg_index i"
                + " JOIN pg_class c ON c.oid = i.indrelid"
                + " JOIN pg_class ic ON ic.oid = i.indexrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND i.indisunique"
                + " AND i.indpred IS NULL AND i.indexprs IS NULL")) {
      s.setString(1, table.schema());
      s.setString(2, table.table());
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          String[] columns = (String[]) rs.getArray(3).getArray();
          indexes.add(
              new UniqueIndex(rs.getString(1), java.util.Set.of(columns), rs.getBoolean(2)));
        }
      }
    }
    return indexes;
  }

  /**
   * The table's replica identity ({@code pg_class.relreplident}): {@code d} default (the primary
   * key), {@code n} nothing, {@code f} full row, {@code i} an index.
   */
  public static char replicaIdentity(Connection connection, TableName table) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT c.relreplident FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
      s.setString(1, table.schema());
      s.setString(2, table.table());
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("table " + table + " does not exist");
        }
        return rs.getString(1).charAt(0);
      }
    }
  }
}
