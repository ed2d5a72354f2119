package io.cdccompare.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.rowhash.LogicalType;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DialectTest {

  private final Dialect postgres = new PostgresDialect();
  private final Dialect mariadb = new MariaDbDialect();

  @Test
  void identifiersAreQuotedWithEmbeddedQuotesDoubled() {
    // Given identifiers holding each database's quote character
    // When they are quoted
    // Then the quote is doubled inside the dialect's quotes
    assertThat(postgres.quote("we\"ird")).isEqualTo("\"we\"\"ird\"");
    assertThat(mariadb.quote("we`ird")).isEqualTo("`we``ird`");
  }

  @Test
  void keyLookupUsesRowValueEqualityWithTheColumnsPlaceholders() {
    // Given a composite key whose second column is a MariaDB TIMESTAMP
    // When the lookup query is built
    String sql =
        mariadb.selectByKeySql(
            new TableRef("shop", "orders"),
            List.of("`a`", "UNIX_TIMESTAMP(`at`)"),
            List.of("id", "at"),
            List.of("?", "FROM_UNIXTIME(?)"));

    // Then it compares a row value with the placeholders
    assertThat(sql)
        .isEqualTo(
            "SELECT `a`, UNIX_TIMESTAMP(`at`) FROM `shop`.`orders`"
                + " WHERE (`id`, `at`) = (?, FROM_UNIXTIME(?))");
  }

  @Test
  void keysOfOneColumnAreLookedUpAsAnInListAndKeysOfSeveralAsOrEdEqualities() {
    // Given a key of one column and a composite key whose second column is a MariaDB TIMESTAMP
    // When look-ups of three keys are built
    String single =
        postgres.selectByKeysSql(
            new TableRef("shop", "items"), List.of("\"v\""), List.of("id"), List.of("?::uuid"), 3);
    String composite =
        mariadb.selectByKeysSql(
            new TableRef("shop", "orders"),
            List.of("`a`"),
            List.of("id", "at"),
            List.of("?", "FROM_UNIXTIME(?)"),
            3);

    // Then one column is asked with one IN list of its placeholders, which PostgreSQL plans as
    // one index scan over an array of keys
    assertThat(single)
        .isEqualTo(
            "SELECT \"v\" FROM \"shop\".\"items\" WHERE \"id\" IN (?::uuid, ?::uuid, ?::uuid)");
    // And several columns with equalities OR-ed per key, which MariaDB reads by index
    assertThat(composite)
        .isEqualTo(
            "SELECT `a` FROM `shop`.`orders` WHERE (`id` = ? AND `at` = FROM_UNIXTIME(?))"
                + " OR (`id` = ? AND `at` = FROM_UNIXTIME(?))"
                + " OR (`id` = ? AND `at` = FROM_UNIXTIME(?))");
  }

  @Test
  void scanIsOrderedByTheKey() {
    // Given a table and its key
    // When the scan query is built
    // Then it orders by the quoted key columns
    assertThat(postgres.selectAllSql(TableRef.of("t"), List.of("\"a\""), List.of("k1", "k2")))
        .isEqualTo("SELECT \"a\" FROM \"t\" ORDER BY \"k1\", \"k2\"");
  }

  @ParameterizedTest
  @CsvSource({
    "int2, SMALLINT",
    "int4, INTEGER",
    "serial, INTEGER",
    "int8, BIGINT",
    "numeric, DECIMAL",
    "float4, REAL",
    "float8, DOUBLE",
    "bool, BOOLEAN",
    "bpchar, CHAR",
    "varchar, VARCHAR",
    "text, TEXT",
    "bytea, BINARY",
    "uuid, UUID",
    "json, JSON",
    "jsonb, JSON",
    "date, DATE",
    "time, TIME",
    "timestamp, TIMESTAMP",
    "timestamptz, TIMESTAMP_TZ"
  })
  void postgresTypesMapToLogicalTypes(String typeName, LogicalType expected) {
    // Given a PostgreSQL driver type name
    // When the dialect maps it
    // Then it has the expected logical type
    assertThat(postgres.access("c", ColumnType.of(typeName)).defaultType()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    "TINYINT, SMALLINT",
    "SMALLINT, SMALLINT",
    "MEDIUMINT, INTEGER",
    "INTEGER, INTEGER",
    "INTEGER UNSIGNED, BIGINT",
    "BIGINT, BIGINT",
    "BIGINT UNSIGNED, BIGINT",
    "DECIMAL, DECIMAL",
    "FLOAT, REAL",
    "DOUBLE, DOUBLE",
    "BOOLEAN, BOOLEAN",
    "CHAR, CHAR",
    "VARCHAR, VARCHAR",
    "TEXT, TEXT",
    "LONGTEXT, TEXT",
    "VARBINARY, BINARY",
    "BLOB, BINARY",
    "uuid, UUID",
    "JSON, JSON",
    "DATE, DATE",
    "TIME, TIME",
    "DATETIME, TIMESTAMP",
    "TIMESTAMP, TIMESTAMP_TZ"
  })
  void mariaDbTypesMapToLogicalTypes(String typeName, LogicalType expected) {
    // Given a MariaDB Connector/J type name
    // When the dialect maps it
    // Then it has the expected logical type
    assertThat(mariadb.access("c", ColumnType.of(typeName)).defaultType()).isEqualTo(expected);
  }

  @Test
  void mariaDbTimestampAndFloatAreSelectedThroughExactExpressions() {
    // Given MariaDB TIMESTAMP and FLOAT columns
    // When their select expressions are built
    // Then TIMESTAMP goes through UNIX_TIMESTAMP and FLOAT through a widening cast
    assertThat(mariadb.access("at", ColumnType.of("TIMESTAMP")).selectExpression("`at`"))
        .isEqualTo("UNIX_TIMESTAMP(`at`)");
    assertThat(mariadb.access("at", ColumnType.of("TIMESTAMP")).placeholder())
        .isEqualTo("FROM_UNIXTIME(?)");
    assertThat(mariadb.access("f", ColumnType.of("FLOAT")).selectExpression("`f`"))
        .isEqualTo("CAST(`f` AS DOUBLE)");
  }

  @Test
  void unsupportedTypeIsRefusedNamingDialectColumnAndType() {
    // Given a PostgreSQL interval column and a MariaDB BIT(8)
    // When the dialects are asked how to read them
    // Then they refuse, naming the column and the type
    assertThatThrownBy(() -> postgres.access("duration", ColumnType.of("interval")))
        .isInstanceOf(UnsupportedColumnTypeException.class)
        .hasMessageContaining("postgresql column duration has type 'interval'");
    assertThatThrownBy(() -> mariadb.access("flags", new ColumnType("BIT", Types.BIT, 8, 0)))
        .isInstanceOf(UnsupportedColumnTypeException.class)
        .hasMessageContaining("flags");
  }

  @Test
  void dialectIsChosenByJdbcUrl() {
    // Given JDBC URLs of both databases
    // When a dialect is chosen
    // Then it matches the URL's scheme
    assertThat(Dialect.forJdbcUrl("jdbc:postgresql://h/db")).isInstanceOf(PostgresDialect.class);
    assertThat(Dialect.forJdbcUrl("jdbc:mariadb://h/db")).isInstanceOf(MariaDbDialect.class);
    assertThat(Dialect.forJdbcUrl("jdbc:mysql://h/db")).isInstanceOf(MariaDbDialect.class);
  }
}
