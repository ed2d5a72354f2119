package io.cdccompare.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import io.cdccompare.jdbc.hash.KeyBinder;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Composite keys encoded from rows read on PostgreSQL (the source) decode into bind values that
 * find exactly the same row on MariaDB and on PostgreSQL itself.
 */
@WithEmbedded({Component.SOURCE_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyParityIT {

  private static final int ROWS = 300;
  private static final List<String> KEY =
      List.of("k_int", "k_text", "k_uuid", "k_at", "k_day", "k_amount");
  private static final KeyCodec CODEC =
      new KeyCodec(
          List.of(
              LogicalType.INTEGER,
              LogicalType.VARCHAR,
              LogicalType.UUID,
              LogicalType.TIMESTAMP_TZ,
              LogicalType.DATE,
              LogicalType.DECIMAL));

  private String postgresDb;
  private String mariaDb;

  @BeforeAll
  void writeRowsWithCompositeKeys(EmbeddedEnvironment env) throws SQLException {
    postgresDb = env.sourcePostgres().createDatabase("parity_keys");
    mariaDb = env.mariadb().createDatabase("parity_keys");
    try (Connection pg = env.sourcePostgres().connect(postgresDb);
        Statement statement = pg.createStatement()) {
      statement.execute(
          "CREATE TABLE keyed (k_int int4, k_text varchar(30), k_uuid uuid, k_at timestamptz(6),"
              + " k_day date, k_amount numeric(10,2), v text,"
              + " PRIMARY KEY (k_int, k_text, k_uuid, k_at, k_day, k_amount))");
      insert(pg, "?");
    }
    try (Connection maria = env.mariadb().connect(mariaDb);
        Statement statement = maria.createStatement()) {
      RowHashParityIT.setSessionTimeZone(maria, "-03:00");
      statement.execute(
          "CREATE TABLE keyed (k_int INT, k_text VARCHAR(30), k_uuid UUID, k_at TIMESTAMP(6) NOT NULL"
              + " DEFAULT CURRENT_TIMESTAMP(6), k_day DATE, k_amount DECIMAL(10,2), v TEXT,"
              + " PRIMARY KEY (k_int, k_text, k_uuid, k_at, k_day, k_amount))"
              + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
      insert(maria, "FROM_UNIXTIME(?)");
    }
  }

  @Test
  void everyKeyReadOnPostgresFindsTheSameRowOnBothDatabases(EmbeddedEnvironment env)
      throws SQLException {
    // Given every row's key and hash read on PostgreSQL
    Map<String, String> source = new LinkedHashMap<>();
    HashPlan plan;
    try (Connection pg = env.sourcePostgres().connect(postgresDb)) {
      plan = ParitySides.sourcePlan(pg, TableHashRules.plain("keyed"));
      source.putAll(keysAndHashes(pg, plan));
    }
    assertThat(source).hasSize(ROWS);

    // When each key is decoded and bound on MariaDB (session at +11:00) and on PostgreSQL
    Map<String, String> mariadb;
    Map<String, String> postgres;
    try (Connection maria = env.mariadb().connect(mariaDb);
        Connection pg = env.sourcePostgres().connect(postgresDb)) {
      RowHashParityIT.setSessionTimeZone(maria, "+11:00");
      mariadb = lookUp(maria, plan, Side.TARGET, source.keySet());
      postgres = lookUp(pg, plan, Side.SOURCE, source.keySet());
    }

    // Then every key finds exactly one row, with the source row's hash
    assertThat(mariadb).isEqualTo(source);
    assertThat(postgres).isEqualTo(source);
  }

  private static Map<String, String> keysAndHashes(Connection pg, HashPlan plan)
      throws SQLException {
    Dialect dialect = Dialect.forJdbcUrl(pg.getMetaData().getURL());
    Map<String, ColumnType> types = TableCatalog.describe(pg, dialect, TableRef.of("keyed"));
    JdbcKeyReader keys = new JdbcKeyReader(dialect, CODEC, KEY, types, 1);
    JdbcRowHasher hasher =
        new JdbcRowHasher(
            plan,
            Side.SOURCE,
            dialect,
            types,
            CanonicalFormat.STRICT,
            HashFunction.md5(),
            KEY.size() + 1);
    List<String> selectList = new ArrayList<>(keys.selectList());
    selectList.addAll(hasher.selectList());
    Map<String, String> result = new LinkedHashMap<>();
    try (Statement statement = pg.createStatement();
        ResultSet rows =
            statement.executeQuery(dialect.selectAllSql(TableRef.of("keyed"), selectList, KEY))) {
      while (rows.next()) {
        result.put(keys.encode(rows), hasher.hash(rows).hex());
      }
    }
    return result;
  }

  /** encoded key → hash of the one row found by it (a key finding 0 or 2 rows is left out). */
  private static Map<String, String> lookUp(
      Connection connection, HashPlan plan, Side side, Iterable<String> encodedKeys)
      throws SQLException {
    Dialect dialect = Dialect.forJdbcUrl(connection.getMetaData().getURL());
    Map<String, ColumnType> types =
        TableCatalog.describe(connection, dialect, TableRef.of("keyed"));
    KeyBinder binder = new KeyBinder(dialect, CODEC, KEY, types);
    JdbcRowHasher hasher =
        new JdbcRowHasher(
            plan, side, dialect, types, CanonicalFormat.STRICT, HashFunction.md5(), 1);
    String sql =
        dialect.selectByKeySql(
            TableRef.of("keyed"), hasher.selectList(), KEY, binder.placeholders());
    Map<String, String> found = new LinkedHashMap<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (String key : encodedKeys) {
        binder.bind(statement, 1, key);
        try (ResultSet rows = statement.executeQuery()) {
          List<String> hashes = new ArrayList<>();
          while (rows.next()) {
            hashes.add(hasher.hash(rows).hex());
          }
          if (hashes.size() == 1) {
            found.put(key, hashes.get(0));
          }
        }
      }
    }
    return found;
  }

  private static void insert(Connection connection, String instantPlaceholder) throws SQLException {
    boolean mariadb = !instantPlaceholder.equals("?");
    SplittableRandom random = new SplittableRandom(99);
    String sql = "INSERT INTO keyed VALUES (?, ?, ?, " + instantPlaceholder + ", ?, ?, ?)";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < ROWS; i++) {
        Instant at =
            Instant.ofEpochSecond(
                random.nextLong(86_400, 2_100_000_000L), random.nextInt(1_000_000) * 1_000L);
        UUID uuid =
            new UUID(
                (random.nextLong() & ~0xF000L) | 0x4000L,
                (random.nextLong() >>> 2) | Long.MIN_VALUE);
        statement.setInt(1, random.nextInt());
        statement.setString(2, i + ParityRows.randomText(random, 20));
        if (mariadb) {
          statement.setString(3, uuid.toString());
          statement.setBigDecimal(
              4, BigDecimal.valueOf(at.getEpochSecond()).add(BigDecimal.valueOf(at.getNano(), 9)));
        } else {
          statement.setObject(3, uuid);
          statement.setObject(4, OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
        }
        statement.setObject(5, LocalDate.ofEpochDay(random.nextLong(-300_000, 2_900_000)));
        statement.setBigDecimal(
            6, BigDecimal.valueOf(random.nextLong(-99_999_999, 100_000_000), 2));
        statement.setString(7, "row " + i);
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }
}
