package io.cdccompare.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Instants are read the same whatever the session time zone: PostgreSQL {@code timestamptz} and
 * MariaDB {@code TIMESTAMP} columns, each read in sessions at different zones. Each test first
 * shows that the sessions really see different wall-clock texts.
 */
@WithEmbedded({Component.SOURCE_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionTimeZoneIT {

  private String postgresDb;
  private String mariaDb;
  private HashPlan plan;

  @BeforeAll
  void writeOneInstant(EmbeddedEnvironment env) throws SQLException {
    postgresDb = env.sourcePostgres().createDatabase("parity_time_zones");
    mariaDb = env.mariadb().createDatabase("parity_time_zones");
    try (Connection pg = env.sourcePostgres().connect(postgresDb);
        Statement statement = pg.createStatement()) {
      statement.execute("SET TimeZone = 'Pacific/Auckland'");
      statement.execute("CREATE TABLE instants (id bigint PRIMARY KEY, at timestamptz(6))");
      statement.execute("INSERT INTO instants VALUES (1, '2024-06-30 23:15:00.654321+00')");
      plan = ParitySides.sourcePlan(pg, TableHashRules.plain("instants"));
    }
    try (Connection maria = env.mariadb().connect(mariaDb);
        Statement statement = maria.createStatement()) {
      statement.execute("SET time_zone = '+13:00'");
      statement.execute("CREATE TABLE instants (id BIGINT PRIMARY KEY, at TIMESTAMP(6) NULL)");
      // 2024-06-30 23:15:00.654321 UTC written as wall-clock time at +13:00
      statement.execute("INSERT INTO instants VALUES (1, '2024-07-01 12:15:00.654321')");
    }
  }

  @Test
  void postgresTimestamptzHashIsTheSameInEverySessionTimeZone(EmbeddedEnvironment env)
      throws SQLException {
    // Given two PostgreSQL sessions in zones 17 hours apart, which see different texts
    try (Connection kolkata = postgresSession(env, "Asia/Kolkata");
        Connection losAngeles = postgresSession(env, "America/Los_Angeles")) {
      assertThat(text(kolkata, "SELECT at::text FROM instants"))
          .isNotEqualTo(text(losAngeles, "SELECT at::text FROM instants"));

      // When each hashes the row
      String first =
          ParitySides.hashAll(kolkata, plan, Side.SOURCE, CanonicalFormat.STRICT).get(1L).text();
      String second =
          ParitySides.hashAll(losAngeles, plan, Side.SOURCE, CanonicalFormat.STRICT).get(1L).text();

      // Then both read the instant in UTC
      assertThat(first).isEqualTo(second).isEqualTo("1,2024-06-30 23:15:00.654321");
    }
  }

  @Test
  void mariaDbTimestampHashIsTheSameInEverySessionTimeZone(EmbeddedEnvironment env)
      throws SQLException {
    // Given two MariaDB sessions at -08:00 and +05:30, which see different texts
    try (Connection west = mariaDbSession(env, "-08:00");
        Connection east = mariaDbSession(env, "+05:30")) {
      assertThat(text(west, "SELECT CAST(at AS CHAR) FROM instants"))
          .isNotEqualTo(text(east, "SELECT CAST(at AS CHAR) FROM instants"));

      // When each hashes the row
      String first =
          ParitySides.hashAll(west, plan, Side.TARGET, CanonicalFormat.STRICT).get(1L).text();
      String second =
          ParitySides.hashAll(east, plan, Side.TARGET, CanonicalFormat.STRICT).get(1L).text();

      // Then both read the instant in UTC, as PostgreSQL does
      assertThat(first).isEqualTo(second).isEqualTo("1,2024-06-30 23:15:00.654321");
    }
  }

  private Connection postgresSession(EmbeddedEnvironment env, String zone) throws SQLException {
    Connection connection = env.sourcePostgres().connect(postgresDb);
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET TimeZone = '" + zone + "'");
    }
    return connection;
  }

  private Connection mariaDbSession(EmbeddedEnvironment env, String zone) throws SQLException {
    Connection connection = env.mariadb().connect(mariaDb);
    RowHashParityIT.setSessionTimeZone(connection, zone);
    return connection;
  }

  private static String text(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }
}
