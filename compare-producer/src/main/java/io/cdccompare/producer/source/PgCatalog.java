package io.cdccompare.producer.source;

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
}
