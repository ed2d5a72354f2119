package io.cdccompare.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
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
    String sql =
        mariadb.range(List.of("`id`", "UNIX_TIMESTAMP(`at`)"), ComparedRange.between("1", "2"));

    // Then both bounds use the placeholders, written as OR-ed key prefixes (MariaDB turns those,
    // not a row-value inequality, into index ranges), and the read is key-ordered
    assertThat(sql)
        .isEqualTo(
            "SELECT `id`, UNIX_TIMESTAMP(`at`) FROM `shop`.`orders`"
                + " WHERE (`id` > ? OR (`id` = ? AND `at` >= FROM_UNIXTIME(?)))"
                + " AND (`id` < ? OR (`id` = ? AND `at` <= FROM_UNIXTIME(?))) ORDER BY `id`, `at`");
    assertThat(new MariaDbDialect().boundColumns(2)).containsExactly(0, 0, 1);
  }

  @Test
  void aFullChunkRangeExcludesThePreviousChunksLastKey() {
    // Given the range of a chunk at deep=100 between two others
    // When the range read is built
    String sql = postgres.range(List.of("\"a\""), ComparedRange.after("1,1", "1,9"));

    // Then the lower bound is exclusive and the upper inclusive, so consecutive chunks meet
    assertThat(sql)
        .isEqualTo(
            "SELECT \"a\" FROM \"shop\".\"orders\" WHERE (\"a\", \"b\") > (?, ?)"
                + " AND (\"a\", \"b\") <= (?, ?) ORDER BY \"a\", \"b\"");
  }

  @Test
  void theTablesFirstAndLastChunksAreOpenAtTheirEnds() {
    // Given the first chunk (open below), the last (open above) and an empty table's only chunk
    // When their range reads are built
    // Then each has only the bounds it has
    assertThat(postgres.range(List.of("\"a\""), ComparedRange.after(null, "5,5")))
        .isEqualTo(
            "SELECT \"a\" FROM \"shop\".\"orders\" WHERE (\"a\", \"b\") <= (?, ?)"
                + " ORDER BY \"a\", \"b\"");
    assertThat(postgres.range(List.of("\"a\""), ComparedRange.after("5,5", null)))
        .isEqualTo(
            "SELECT \"a\" FROM \"shop\".\"orders\" WHERE (\"a\", \"b\") > (?, ?)"
                + " ORDER BY \"a\", \"b\"");
    assertThat(postgres.range(List.of("\"a\""), ComparedRange.EVERYTHING))
        .isEqualTo("SELECT \"a\" FROM \"shop\".\"orders\" ORDER BY \"a\", \"b\"");
  }

  @Test
  void aThreeColumnKeyBoundIsExpandedIntoItsPrefixesOnMariaDb() {
    // Given a three-column key on MariaDB
    KeysetQueries mariadb =
        new KeysetQueries(
            new MariaDbDialect(),
            new TableRef("s", "t"),
            List.of("a", "b", "c"),
            List.of("?", "?", "?"));

    // When the range after a key is built
    String sql = mariadb.range(List.of("`a`"), ComparedRange.after("1,2,3", null));

    // Then each prefix is one term, and the placeholders bind columns 0, 0 1, 0 1 2
    assertThat(sql)
        .isEqualTo(
            "SELECT `a` FROM `s`.`t` WHERE (`a` > ? OR (`a` = ? AND `b` > ?)"
                + " OR (`a` = ? AND `b` = ? AND `c` > ?)) ORDER BY `a`, `b`, `c`");
    assertThat(new MariaDbDialect().boundColumns(3)).containsExactly(0, 0, 1, 0, 1, 2);
    assertThat(new PostgresDialect().boundColumns(3)).containsExactly(0, 1, 2);
  }

  @Test
  void aSingleColumnKeyStaysOneComparisonOnMariaDb() {
    KeysetQueries mariadb =
        new KeysetQueries(
            new MariaDbDialect(), new TableRef("s", "t"), List.of("id"), List.of("?"));
    assertThat(mariadb.range(List.of("`id`"), ComparedRange.after("1", "9")))
        .isEqualTo("SELECT `id` FROM `s`.`t` WHERE (`id`) > (?) AND (`id`) <= (?) ORDER BY `id`");
    assertThat(new MariaDbDialect().boundColumns(1)).containsExactly(0);
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
