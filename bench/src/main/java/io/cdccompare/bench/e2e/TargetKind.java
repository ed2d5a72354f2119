package io.cdccompare.bench.e2e;

import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.MariaDbDialect;
import io.cdccompare.jdbc.sql.PostgresDialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The kinds of database a target can be, and the few statements the benchmark runs on each. */
public enum TargetKind {
  POSTGRES("PostgreSQL", new PostgresDialect()) {
    @Override
    String currentSchemaSql() {
      return "SELECT current_schema()";
    }

    @Override
    void settle(Connection c, String qualifiedTable) throws SQLException {
      execute(c, "VACUUM (ANALYZE) " + qualifiedTable);
    }
  },
  MARIADB("MariaDB", new MariaDbDialect()) {
    @Override
    String currentSchemaSql() {
      return "SELECT DATABASE()";
    }

    @Override
    void settle(Connection c, String qualifiedTable) throws SQLException {
      execute(c, "ANALYZE TABLE " + qualifiedTable);
    }
  };

  private final String label;
  private final Dialect dialect;

  TargetKind(String label, Dialect dialect) {
    this.label = label;
    this.dialect = dialect;
  }

  public String label() {
    return label;
  }

  /** The kind a JDBC URL connects to. */
  public static TargetKind ofUrl(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      return POSTGRES;
    }
    if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
      return MARIADB;
    }
    throw new IllegalArgumentException(
        "a target URL is jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql:, was " + jdbcUrl);
  }

  /**
   * The schema (PostgreSQL) or database (MariaDB) unqualified names resolve to on this connection:
   * where the benchmark creates its tables and the verifier's bookkeeping goes.
   */
  String currentSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(currentSchemaSql())) {
      if (!rs.next() || rs.getString(1) == null) {
        throw new SQLException("the connection has no current schema or database");
      }
      return rs.getString(1);
    }
  }

  /**
   * Updates the planner's statistics (and, on PostgreSQL, the visibility map) of a loaded table.
   */
  abstract void settle(Connection c, String qualifiedTable) throws SQLException;

  abstract String currentSchemaSql();

  /** The identifier quoted as the verifier quotes it ({@link Dialect#quote}). */
  String quote(String identifier) {
    return dialect.quote(identifier);
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static long count(Connection c, String qualifiedTable) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + qualifiedTable)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
