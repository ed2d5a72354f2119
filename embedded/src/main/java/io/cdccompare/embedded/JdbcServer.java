package io.cdccompare.embedded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** A database server of the environment, reached over JDBC on a loopback port. */
public interface JdbcServer extends EmbeddedServer {
  /** The user every embedded database server is set up with, a superuser of that server. */
  String USER = "cdc";

  String PASSWORD = "cdc-compare";

  /** Every embedded server listens on the loopback address only. */
  default String host() {
    return "127.0.0.1";
  }

  int port();

  default String user() {
    return USER;
  }

  default String password() {
    return PASSWORD;
  }

  /** The database that always exists on the server (for administration). */
  String defaultDatabase();

  /** JDBC URL of one database of this server, without credentials. */
  String jdbcUrl(String database);

  /**
   * Creates a database (a PostgreSQL database or a MariaDB schema) and returns its name, quoted as
   * the server's driver quotes identifiers.
   */
  default String createDatabase(String name) {
    try (Connection c = connect(defaultDatabase());
        Statement s = c.createStatement()) {
      char quote = c.getMetaData().getIdentifierQuoteString().charAt(0);
      s.execute("CREATE DATABASE " + Identifiers.quote(name, quote));
      return name;
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create database " + name + " on " + component().displayName(), e);
    }
  }

  /** Opens a connection as {@link #user()} to a database of this server. */
  default Connection connect(String database) throws SQLException {
    Properties props = new Properties();
    props.put("user", user());
    props.put("password", password());
    return DriverManager.getConnection(jdbcUrl(database), props);
  }
}
