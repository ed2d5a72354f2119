package io.cdccompare.jdbc;

import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.MariaDbDialect;
import io.cdccompare.jdbc.sql.PostgresDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The two kinds of target the ITs run on: the embedded target PostgreSQL and MariaDB. */
public enum TargetKind {
  POSTGRES {
    @Override
    public JdbcServer server(EmbeddedEnvironment env) {
      return env.targetPostgres();
    }

    @Override
    public Dialect dialect() {
      return new PostgresDialect();
    }

    @Override
    public String type(String postgres, String mariadb) {
      return postgres;
    }

    @Override
    public String tableOptions() {
      return "";
    }

    @Override
    public String createBookkeepingSchema(JdbcServer server, Connection connection, String name)
        throws SQLException {
      try (Statement statement = connection.createStatement()) {
        statement.execute("CREATE SCHEMA " + name);
      }
      return name;
    }
  },
  MARIADB {
    @Override
    public JdbcServer server(EmbeddedEnvironment env) {
      return env.mariadb();
    }

    @Override
    public Dialect dialect() {
      return new MariaDbDialect();
    }

    @Override
    public String type(String postgres, String mariadb) {
      return mariadb;
    }

    @Override
    public String tableOptions() {
      return " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    @Override
    public String createBookkeepingSchema(JdbcServer server, Connection connection, String name) {
      return server.createDatabase(name);
    }
  };

  public abstract JdbcServer server(EmbeddedEnvironment env);

  public abstract Dialect dialect();

  /** The column type for this kind: the PostgreSQL or the MariaDB spelling. */
  public abstract String type(String postgres, String mariadb);

  /** What follows {@code CREATE TABLE t (…)}: MariaDB tables compare text byte for byte. */
  public abstract String tableOptions();

  /**
   * A schema (PostgreSQL, inside the connection's database) or database (MariaDB) for the
   * checkpoint and verdict tables; returns its name.
   */
  public abstract String createBookkeepingSchema(
      JdbcServer server, Connection connection, String name) throws SQLException;

  /** Runs one statement. */
  public static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
