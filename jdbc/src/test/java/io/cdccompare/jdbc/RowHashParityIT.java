package io.cdccompare.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.ParitySides.HashedRow;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The acceptance of issue 3: the same logical rows written to the embedded PostgreSQL and MariaDB
 * hash equal row by row through the JDBC path of each, with the sessions of the two sides in
 * different time zones (PostgreSQL Asia/Kolkata, MariaDB -08:00, MariaDB rows written at +09:00).
 */
@WithEmbedded({Component.SOURCE_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RowHashParityIT {

  static final long RANDOM_SEED = 20_240_531L;
  static final int RANDOM_ROWS = 10_000;

  private String postgresDb;
  private String mariaDb;

  @BeforeAll
  void writeTheSameRowsToBothDatabases(EmbeddedEnvironment env) throws SQLException {
    postgresDb = env.sourcePostgres().createDatabase("parity_rows");
    mariaDb = env.mariadb().createDatabase("parity_rows");
    List<ParityRow> rows = new ArrayList<>(ParityRows.edges());
    rows.addAll(ParityRows.random(RANDOM_SEED, 1_000_000, RANDOM_ROWS));
    try (Connection pg = env.sourcePostgres().connect(postgresDb)) {
      ParityTables.createPostgres(pg, "parity");
      ParityTables.insertPostgres(pg, "parity", rows);
    }
    try (Connection maria = env.mariadb().connect(mariaDb)) {
      setSessionTimeZone(maria, "+09:00");
      ParityTables.createMariaDb(maria, "parity");
      ParityTables.insertMariaDb(maria, "parity", rows);
    }
  }

  @Test
  void everyRowHashesEqualOnPostgresAndMariaDb(EmbeddedEnvironment env) throws SQLException {
    // Given the parity rows on both databases, read in different session time zones
    // When each side hashes its rows through its JDBC path (compatible format, MD5)
    Map<Long, HashedRow> postgres = hashPostgres(env, CanonicalFormat.COMPATIBLE, "Asia/Kolkata");
    Map<Long, HashedRow> mariadb = hashMariaDb(env, CanonicalFormat.COMPATIBLE, "-08:00");

    // Then all rows are there and every row's hash is equal
    assertThat(postgres).hasSize(ParityRows.edges().size() + RANDOM_ROWS);
    assertThat(mariadb.keySet()).isEqualTo(postgres.keySet());
    assertThat(differences(postgres, mariadb)).isEmpty();
  }

  @Test
  void everyRowHashesEqualInStrictFormatToo(EmbeddedEnvironment env) throws SQLException {
    // Given the parity rows on both databases
    // When each side hashes them in strict format, sessions in other time zones than before
    Map<Long, HashedRow> postgres =
        hashPostgres(env, CanonicalFormat.STRICT, "America/Los_Angeles");
    Map<Long, HashedRow> mariadb = hashMariaDb(env, CanonicalFormat.STRICT, "+05:30");

    // Then every row's hash is equal
    assertThat(mariadb.keySet()).isEqualTo(postgres.keySet());
    assertThat(differences(postgres, mariadb)).isEmpty();
  }

  @Test
  void edgeRowsAreNotAllAlike(EmbeddedEnvironment env) throws SQLException {
    // Given the edge rows, each differing from the typical row in one value
    // When PostgreSQL hashes them
    Map<Long, HashedRow> postgres = hashPostgres(env, CanonicalFormat.STRICT, "UTC");

    // Then nearly every edge row hashes apart from the typical row (id 2); the ones that do not
    // are edge values equal to the typical one after canonicalisation: none
    String typical = postgres.get(2L).hash();
    long sameAsTypical =
        postgres.entrySet().stream()
            .filter(e -> e.getKey() > 2 && e.getKey() < 1_000_000)
            .filter(e -> e.getValue().hash().equals(typical))
            .count();
    assertThat(sameAsTypical).isZero();
  }

  private Map<Long, HashedRow> hashPostgres(
      EmbeddedEnvironment env, CanonicalFormat format, String timeZone) throws SQLException {
    try (Connection pg = env.sourcePostgres().connect(postgresDb)) {
      try (Statement statement = pg.createStatement()) {
        statement.execute("SET TimeZone = '" + timeZone + "'");
      }
      HashPlan plan = ParitySides.sourcePlan(pg, planRules());
      return ParitySides.hashAll(pg, plan, Side.SOURCE, format);
    }
  }

  private Map<Long, HashedRow> hashMariaDb(
      EmbeddedEnvironment env, CanonicalFormat format, String timeZone) throws SQLException {
    HashPlan plan;
    try (Connection pg = env.sourcePostgres().connect(postgresDb)) {
      plan = ParitySides.sourcePlan(pg, planRules());
    }
    try (Connection maria = env.mariadb().connect(mariaDb)) {
      setSessionTimeZone(maria, timeZone);
      return ParitySides.hashAll(maria, plan, Side.TARGET, format);
    }
  }

  /** Every column as it is; id is the key, hashed too. */
  private static TableHashRules planRules() {
    return TableHashRules.plain("parity");
  }

  static void setSessionTimeZone(Connection maria, String zone) throws SQLException {
    try (Statement statement = maria.createStatement()) {
      statement.execute("SET time_zone = '" + zone + "'");
    }
  }

  /** Rows whose hashes differ, with both canonical texts, at most 5. */
  static List<String> differences(Map<Long, HashedRow> postgres, Map<Long, HashedRow> mariadb) {
    List<String> differences = new ArrayList<>();
    postgres.forEach(
        (id, row) -> {
          HashedRow other = mariadb.get(id);
          if (other == null || !other.hash().equals(row.hash())) {
            if (differences.size() < 5) {
              differences.add(
                  "id "
                      + id
                      + "\n  postgres: "
                      + row.text()
                      + "\n  mariadb:  "
                      + (other == null ? "-" : other.text()));
            }
          }
        });
    return differences;
  }
}
