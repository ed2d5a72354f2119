package io.cdccompare.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashRulesParser;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.ParitySides.HashedRow;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The negative side of the parity suite: a row that differs in one value between PostgreSQL and
 * MariaDB hashes differently, while a control row with equal values in the same table hashes equal
 * (so the difference comes from the value, not from the table).
 */
@WithEmbedded({Component.SOURCE_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RowHashDifferenceIT {

  private static final AtomicInteger TABLES = new AtomicInteger();

  private String postgresDb;
  private String mariaDb;

  @BeforeAll
  void createDatabases(EmbeddedEnvironment env) {
    postgresDb = env.sourcePostgres().createDatabase("parity_differences");
    mariaDb = env.mariadb().createDatabase("parity_differences");
  }

  @Test
  void caseOfOneLetter(EmbeddedEnvironment env) throws SQLException {
    // Given 'Anna' on PostgreSQL and 'anna' on MariaDB in a varchar column
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "varchar(20)",
            "VARCHAR(20)",
            "'Anna'",
            "'anna'",
            "'Anna'",
            CanonicalFormat.COMPATIBLE);

    // Then they differ while the control row agrees
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void oneLeadingBlank(EmbeddedEnvironment env) throws SQLException {
    // Given ' Anna' on PostgreSQL and 'Anna' on MariaDB
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "varchar(20)",
            "VARCHAR(20)",
            "' Anna'",
            "'Anna'",
            "'Anna  '",
            CanonicalFormat.COMPATIBLE);

    // Then they differ while trailing blanks (the control row) do not matter
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void oneMicrosecond(EmbeddedEnvironment env) throws SQLException {
    // Given timestamps one microsecond apart
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "timestamp(6)",
            "DATETIME(6)",
            "'2024-05-01 10:00:00.123456'",
            "'2024-05-01 10:00:00.123457'",
            "'2024-05-01 10:00:00.1'",
            CanonicalFormat.COMPATIBLE);

    // Then they differ
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void oneUnitInTheLastDecimalPlace(EmbeddedEnvironment env) throws SQLException {
    // Given 10.05 against 10.06 in numeric(10,2) / DECIMAL(10,2)
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "numeric(10,2)",
            "DECIMAL(10,2)",
            "10.05",
            "10.06",
            "10.50",
            CanonicalFormat.COMPATIBLE);

    // Then they differ
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void nanAgainstNull(EmbeddedEnvironment env) throws SQLException {
    // Given NaN in a PostgreSQL double and NULL in the MariaDB double (which cannot hold NaN)
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env, "double precision", "DOUBLE", "'NaN'", "NULL", "NULL", CanonicalFormat.COMPATIBLE);

    // Then they differ
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void emptyAgainstNullInStrictFormat(EmbeddedEnvironment env) throws SQLException {
    // Given '' on PostgreSQL and NULL on MariaDB
    // When both rows are hashed in strict format
    Outcome outcome = hashBoth(env, "text", "TEXT", "''", "NULL", "''", CanonicalFormat.STRICT);

    // Then they differ
    assertThat(outcome.changedRowHashesEqual()).isFalse();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void emptyAgainstNullIsTheCompatibleFormatsDocumentedAmbiguity(EmbeddedEnvironment env)
      throws SQLException {
    // Given '' on PostgreSQL and NULL on MariaDB
    // When both rows are hashed in the compatible format
    Outcome outcome = hashBoth(env, "text", "TEXT", "''", "NULL", "''", CanonicalFormat.COMPATIBLE);

    // Then they hash equal, as docs/row-hash.md, "Known ambiguities", says (which is why strict
    // exists)
    assertThat(outcome.changedRowHashesEqual()).isTrue();
  }

  @Test
  void upperMakesACaseDifferenceEqualOnBothDatabases(EmbeddedEnvironment env) throws SQLException {
    // Given 'Anna' on PostgreSQL and 'ANNA' on MariaDB, and the column function upper
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "varchar(20)",
            "VARCHAR(20)",
            "'Anna'",
            "'ANNA'",
            "'x'",
            CanonicalFormat.STRICT,
            "upper");

    // Then they hash equal
    assertThat(outcome.changedRowHashesEqual()).isTrue();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void truncateMakesASubMillisecondDifferenceEqualOnBothDatabases(EmbeddedEnvironment env)
      throws SQLException {
    // Given timestamps that differ below the millisecond, and truncate(millisecond)
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "timestamp(6)",
            "DATETIME(6)",
            "'2024-05-01 10:00:00.123456'",
            "'2024-05-01 10:00:00.123999'",
            "'2024-05-01 10:00:00'",
            CanonicalFormat.COMPATIBLE,
            "truncate(millisecond)");

    // Then they hash equal
    assertThat(outcome.changedRowHashesEqual()).isTrue();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  @Test
  void roundMakesALastDigitDifferenceEqualOnBothDatabases(EmbeddedEnvironment env)
      throws SQLException {
    // Given 10.04 against 10.01, and round(1)
    // When both rows are hashed
    Outcome outcome =
        hashBoth(
            env,
            "numeric(10,2)",
            "DECIMAL(10,2)",
            "10.04",
            "10.01",
            "1",
            CanonicalFormat.COMPATIBLE,
            "round(1)");

    // Then they hash equal
    assertThat(outcome.changedRowHashesEqual()).isTrue();
    assertThat(outcome.controlRowHashesEqual()).isTrue();
  }

  /** Whether the differing row (id 1) and the control row (id 2) hash equal on both sides. */
  record Outcome(boolean changedRowHashesEqual, boolean controlRowHashesEqual) {}

  private Outcome hashBoth(
      EmbeddedEnvironment env,
      String postgresType,
      String mariaDbType,
      String postgresValue,
      String mariaDbValue,
      String controlValue,
      CanonicalFormat format,
      String... functions)
      throws SQLException {
    String table = "difference_" + TABLES.incrementAndGet();
    HashPlan plan;
    Map<Long, HashedRow> postgres;
    try (Connection pg = env.sourcePostgres().connect(postgresDb);
        Statement statement = pg.createStatement()) {
      statement.execute(
          "CREATE TABLE " + table + " (id bigint PRIMARY KEY, v " + postgresType + ")");
      statement.execute(
          "INSERT INTO " + table + " VALUES (1, " + postgresValue + "), (2, " + controlValue + ")");
      plan =
          ParitySides.sourcePlan(
              pg,
              HashRulesParser.parse(
                  table, Map.of(), List.of(), Map.of("v", List.of(functions)), Map.of(), Map.of()));
      postgres = ParitySides.hashAll(pg, plan, Side.SOURCE, format);
    }
    Map<Long, HashedRow> mariadb;
    try (Connection maria = env.mariadb().connect(mariaDb);
        Statement statement = maria.createStatement()) {
      statement.execute(
          "CREATE TABLE "
              + table
              + " (id BIGINT PRIMARY KEY, v "
              + mariaDbType
              + ") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
      statement.execute(
          "INSERT INTO " + table + " VALUES (1, " + mariaDbValue + "), (2, " + controlValue + ")");
      mariadb = ParitySides.hashAll(maria, plan, Side.TARGET, format);
    }
    return new Outcome(
        postgres.get(1L).hash().equals(mariadb.get(1L).hash()),
        postgres.get(2L).hash().equals(mariadb.get(2L).hash()));
  }
}
