package io.cdccompare.config;

import io.cdccompare.core.table.TableName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings every source-side app shares (the capture and the compare tasks): the topic prefix,
 * Kafka, the schema registry and the source PostgreSQL. Declared once here so that the same key
 * means the same thing, with the same validation, in every file.
 */
public final class ConnectionSettings {
  public static final String TOPIC_PREFIX = "topic.prefix";
  public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
  public static final String REGISTRY_URL = "schema.registry.url";
  public static final String SOURCE_HOST = "source.hostname";
  public static final String SOURCE_PORT = "source.port";
  public static final String SOURCE_DATABASE = "source.database";
  public static final String SOURCE_USER = "source.user";
  public static final String SOURCE_PASSWORD = "source.password";

  private ConnectionSettings() {}

  /** Adds the shared keys to an app's definition: Kafka and a required source database. */
  public static ConfigDef define(ConfigDef definition) {
    return defineSource(defineKafka(definition), true);
  }

  /** Adds the topic prefix, Kafka and the schema registry keys. */
  public static ConfigDef defineKafka(ConfigDef definition) {
    return definition
        .define(
            TOPIC_PREFIX,
            Type.STRING,
            ConfigDef.NO_DEFAULT_VALUE,
            new TopicPart(),
            Importance.HIGH,
            "Prefix of every topic name (<prefix>.<schema>.<table>); also names the capture.")
        .define(
            BOOTSTRAP_SERVERS,
            Type.LIST,
            ConfigDef.NO_DEFAULT_VALUE,
            ConfigDef.ValidList.anyNonDuplicateValues(false, false),
            Importance.HIGH,
            "Kafka bootstrap servers.")
        .define(
            REGISTRY_URL,
            Type.STRING,
            ConfigDef.NO_DEFAULT_VALUE,
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            "Schema registry with the Confluent-compatible API (markers, hash records and alerts"
                + " are Avro).");
  }

  /**
   * Adds the source database keys; when not {@code required}, host, database and user default to
   * none ({@link #hasSource} tells whether they were given).
   */
  public static ConfigDef defineSource(ConfigDef definition, boolean required) {
    Object none = required ? ConfigDef.NO_DEFAULT_VALUE : null;
    ConfigDef.Validator text = required ? new ConfigDef.NonEmptyString() : null;
    return definition
        .define(SOURCE_HOST, Type.STRING, none, text, Importance.HIGH, "Source PostgreSQL host.")
        .define(
            SOURCE_PORT,
            Type.INT,
            5432,
            Range.between(1, 65535),
            Importance.HIGH,
            "Source PostgreSQL port.")
        .define(SOURCE_DATABASE, Type.STRING, none, text, Importance.HIGH, "Source database name.")
        .define(
            SOURCE_USER,
            Type.STRING,
            none,
            text,
            Importance.HIGH,
            "Source user (the capture's needs the REPLICATION attribute).")
        .define(
            SOURCE_PASSWORD,
            Type.PASSWORD,
            "",
            Importance.HIGH,
            "Source password (use ${env:NAME} or ${file:path:key}).");
  }

  /** True when host, database and user of the source are all set. */
  public static boolean hasSource(AbstractConfig values) {
    return !blank(values.getString(SOURCE_HOST))
        && !blank(values.getString(SOURCE_DATABASE))
        && !blank(values.getString(SOURCE_USER));
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  /** The source database of a configuration defined with {@link #define}. */
  public static SourceDatabase source(AbstractConfig values) {
    return new SourceDatabase(
        values.getString(SOURCE_HOST),
        values.getInt(SOURCE_PORT),
        values.getString(SOURCE_DATABASE),
        values.getString(SOURCE_USER),
        values.getPassword(SOURCE_PASSWORD));
  }

  /** Where the source PostgreSQL is and who connects. The password never appears in text. */
  public record SourceDatabase(
      String host, int port, String database, String user, Password password) {

    public String jdbcUrl() {
      return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /**
     * A new connection, named {@code applicationName} in {@code pg_stat_activity}.
     *
     * @throws SQLException naming the URL (never the password) when the database cannot be reached
     */
    public Connection connect(String applicationName) throws SQLException {
      return connect(applicationName, new Properties());
    }

    /** A new connection with extra pgjdbc properties (e.g. {@code prepareThreshold}). */
    public Connection connect(String applicationName, Properties driverProperties)
        throws SQLException {
      Properties props = new Properties();
      props.putAll(driverProperties);
      props.put("user", user);
      props.put("password", password.value());
      props.put("ApplicationName", applicationName);
      try {
        return DriverManager.getConnection(jdbcUrl(), props);
      } catch (SQLException e) {
        throw new SQLException(
            "cannot connect to source database "
                + jdbcUrl()
                + " as "
                + user
                + ": "
                + e.getMessage(),
            e.getSQLState(),
            e);
      }
    }
  }

  /** A topic prefix uses only the characters Kafka allows in topic names. */
  static final class TopicPart implements ConfigDef.Validator {
    @Override
    public String toString() {
      return "1-200 of the characters a-z A-Z 0-9 . _ -";
    }

    @Override
    public void ensureValid(String name, Object value) {
      if (value == null || !value.toString().matches("[a-zA-Z0-9._-]{1,200}")) {
        throw new ConfigException(name, value, "use 1-200 of the characters a-z A-Z 0-9 . _ -");
      }
    }
  }

  /** The table list parses and is not empty. */
  public static final class TableList implements ConfigDef.Validator {
    @Override
    public String toString() {
      return "one or more schema.table, comma separated";
    }

    @Override
    public void ensureValid(String name, Object value) {
      try {
        if (value == null || TableName.parseList(value.toString()).isEmpty()) {
          throw new ConfigException(name, value, "name at least one schema.table");
        }
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }
  }
}
