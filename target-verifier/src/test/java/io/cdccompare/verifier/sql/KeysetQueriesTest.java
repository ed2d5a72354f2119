package io.cdccompare.verifier.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeysetQueriesTest {

  private final KeysetQueries postgres =
      new KeysetQueries(
          new PostgresDialect(),
          new TableRef("shop", "orders"),
          List.of("a", "b"),
          List.of("?", "?"));

  @Test
  void nextChunkComparesTheKeyAsARowValueAndLimitsLast() {
    // Given a composite key
    // When the chunk after a key is built
    String sql = postgres.chunk(List.of("\"a\"", "\"b\"", "\"v\""), true);

    // Then it compares the row value, orders by the key and takes the limit as the last parameter
    assertThat(sql)
        .isEqualTo(
            "SELECT \"a\", \"b\", \"v\" FROM \"shop\".\"orders\" WHERE (\"a\", \"b\") > (?, ?)"
                + " ORDER BY \"a\", \"b\" LIMIT ?");
  }

  @Test
  void firstChunkHasNoLowerBound() {
    // Given no previous key
    // When the first chunk is built
    // Then it reads from the start of the key order
    assertThat(postgres.chunk(List.of("\"a\""), false))
        .isEqualTo("SELECT \"a\" FROM \"shop\".\"orders\" ORDER BY \"a\", \"b\" LIMIT ?");
  }

  @Test
  void rangeIsClosedOnBothEndsWithTheColumnsPlaceholders() {
    // Given a MariaDB key whose second column is a TIMESTAMP
    KeysetQueries mariadb =
        new KeysetQueries(
            new MariaDbDialect(),
            new TableRef("shop", "orders"),
            List.of("id", "at"),
            List.of("?", "FROM_UNIXTIME(?)"));

    // When the range read is built
    String sql = mariadb.range(List.of("`id`", "UNIX_TIMESTAMP(`at`)"));

    // Then both bounds use the placeholders and the read is key-ordered
    assertThat(sql)
        .isEqualTo(
            "SELECT `id`, UNIX_TIMESTAMP(`at`) FROM `shop`.`orders`"
                + " WHERE (`id`, `at`) >= (?, FROM_UNIXTIME(?))"
                + " AND (`id`, `at`) <= (?, FROM_UNIXTIME(?)) ORDER BY `id`, `at`");
  }

  @Test
  void probeAsksForOneRowAfterTheKey() {
    // Given a composite key
    // When the probe is built
    // Then it reads at most one row after the bound key
    assertThat(postgres.anyRow(true))
        .isEqualTo("SELECT 1 FROM \"shop\".\"orders\" WHERE (\"a\", \"b\") > (?, ?) LIMIT 1");
  }

  @Test
  void placeholdersMustMatchTheKeyColumns() {
    // Given one placeholder for two key columns
    // When the queries are built
    // Then they are refused
    assertThatThrownBy(
            () ->
                new KeysetQueries(
                    new PostgresDialect(), TableRef.of("t"), List.of("a", "b"), List.of("?")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
