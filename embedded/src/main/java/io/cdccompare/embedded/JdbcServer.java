package io.cdccompare.embedded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** A database server of the environment, reached over JDBC on a loopback port. */
public interface JdbcServer extends EmbeddedServer {

  String host();

  int port();

  String user();

  String password();

  /** The database that always exists on the server (for administration). */
  String defaultDatabase();

  /** JDBC URL of one database of this server, without credentials. */
  String jdbcUrl(String database);

  /** Creates a database (a PostgreSQL database or a MariaDB schema) and returns its name. */
  String createDatabase(String name);

  /** Opens a connection as {@link #user()} to a database of this server. */
  default Connection connect(String database) throws SQLException {
    Properties props = new Properties();
    props.put("user", user());
    props.put("password", password());
    return DriverManager.getConnection(jdbcUrl(database), props);
  }
}
