package io.cdccompare.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteSqlTest {

  private final Dialect postgres = new PostgresDialect();
  private final Dialect mariadb = new MariaDbDialect();
  private final TableRef orders = new TableRef("shop", "orders");

  @Test
  void postgresUpsertUpdatesEveryNonKeyColumnOnConflictOfTheKey() {
    // Given a composite key and one value column
    // When the upsert is built
    String sql =
        postgres.upsertSql(
            orders, List.of("a", "b", "v"), List.of("?", "?", "?"), List.of("a", "b"));

    // Then a conflict on the key overwrites the value column
    assertThat(sql)
        .isEqualTo(
            "INSERT INTO \"shop\".\"orders\" (\"a\", \"b\", \"v\") VALUES (?, ?, ?)"
                + " ON CONFLICT (\"a\", \"b\") DO UPDATE SET \"v\" = EXCLUDED.\"v\"");
  }

  @Test
  void postgresUpsertOfKeyColumnsOnlyDoesNothingOnConflict() {
    // Given a table whose only columns are its key
    // When the upsert is built
    // Then a conflict leaves the row as it is
    assertThat(postgres.upsertSql(orders, List.of("a"), List.of("?"), List.of("a")))
        .isEqualTo(
            "INSERT INTO \"shop\".\"orders\" (\"a\") VALUES (?) ON CONFLICT (\"a\") DO NOTHING");
  }

  @Test
  void mariaDbUpsertUsesTheColumnsPlaceholdersAndDuplicateKeyUpdate() {
    // Given a MariaDB TIMESTAMP column, written through FROM_UNIXTIME
    // When the upsert is built
    String sql =
        mariadb.upsertSql(
            orders, List.of("id", "at", "v"), List.of("?", "FROM_UNIXTIME(?)", "?"), List.of("id"));

    // Then the placeholder is kept and the other columns take the inserted values
    assertThat(sql)
        .isEqualTo(
            "INSERT INTO `shop`.`orders` (`id`, `at`, `v`) VALUES (?, FROM_UNIXTIME(?), ?)"
                + " ON DUPLICATE KEY UPDATE `at` = VALUES(`at`), `v` = VALUES(`v`)");
  }

  @Test
  void mariaDbUpsertOfKeyColumnsOnlyKeepsTheRow() {
    // Given a table whose only column is its key
    // When the upsert is built
    // Then a duplicate sets the key to itself
    assertThat(mariadb.upsertSql(orders, List.of("id"), List.of("?"), List.of("id")))
        .isEqualTo(
            "INSERT INTO `shop`.`orders` (`id`) VALUES (?) ON DUPLICATE KEY UPDATE `id` = `id`");
  }

  @Test
  void deleteComparesEachKeyColumnWithItsPlaceholder() {
    // Given a composite key with a MariaDB TIMESTAMP
    // When the delete is built
    // Then each key column is compared on its own
    assertThat(
            mariadb.deleteByKeySql(orders, List.of("id", "at"), List.of("?", "FROM_UNIXTIME(?)")))
        .isEqualTo("DELETE FROM `shop`.`orders` WHERE `id` = ? AND `at` = FROM_UNIXTIME(?)");
  }

  @Test
  void checkpointTableIsCreatedWithEachDatabasesTypes() {
    // Given the checkpoint table in schema "cdc"
    // When its DDL is built for each database
    // Then the neutral types become each database's, with the primary key
    assertThat(new CheckpointSql(postgres, "cdc").createTable())
        .isEqualTo(
            "CREATE TABLE IF NOT EXISTS \"cdc\".\"cdc_compare_checkpoints\" ("
                + "\"application\" varchar(200) NOT NULL, \"topic\" varchar(249) NOT NULL,"
                + " \"partition\" integer NOT NULL, \"offset\" bigint NOT NULL,"
                + " \"commit_lsn\" bigint, \"lsn\" bigint, \"updated_at\" timestamptz(6) NOT NULL,"
                + " PRIMARY KEY (\"application\", \"topic\", \"partition\"))");
    assertThat(new CheckpointSql(mariadb, "cdc").createTable())
        .isEqualTo(
            "CREATE TABLE IF NOT EXISTS `cdc`.`cdc_compare_checkpoints` ("
                + "`application` VARCHAR(200) NOT NULL, `topic` VARCHAR(249) NOT NULL,"
                + " `partition` INT NOT NULL, `offset` BIGINT NOT NULL,"
                + " `commit_lsn` BIGINT NULL, `lsn` BIGINT NULL, `updated_at` DATETIME(6) NOT NULL,"
                + " PRIMARY KEY (`application`, `topic`, `partition`))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
  }

  @Test
  void checkpointIsReadUnderALockWhenAsked() {
    // Given the checkpoint statements on PostgreSQL
    CheckpointSql sql = new CheckpointSql(postgres, null);

    // When the locking read is built
    // Then it selects one partition's row FOR UPDATE
    assertThat(sql.select(true))
        .isEqualTo(
            "SELECT \"offset\", \"commit_lsn\", \"lsn\", \"updated_at\""
                + " FROM \"cdc_compare_checkpoints\" WHERE \"application\" = ? AND \"topic\" = ?"
                + " AND \"partition\" = ? FOR UPDATE");
    assertThat(sql.select(false)).doesNotContain("FOR UPDATE");
  }

  @Test
  void verdictPrimaryKeyFitsInnoDbsLimitInUtf8mb4() {
    // Given the verdict table's primary key
    // When its widest byte length in utf8mb4 is added up
    int bytes = 0;
    for (ColumnDefinition column : VerdictSql.COLUMNS) {
      if (VerdictSql.PRIMARY_KEY.contains(column.name())) {
        bytes +=
            switch (column.type()) {
              case TEXT -> 4 * column.length();
              case BIGINT -> 8;
              case INTEGER -> 4;
              default -> throw new AssertionError(column);
            };
      }
    }

    // Then it stays below 3072 bytes
    assertThat(bytes).isLessThanOrEqualTo(3072);
  }

  @Test
  void aTimeSinceMidnightIsBoundAsATimeOfDay() throws SQLException {
    // Given a Debezium time since midnight
    RecordingStatement recording = new RecordingStatement();

    // When it is bound for a PostgreSQL time column
    postgres.bindWrite(
        recording.statement(),
        1,
        "t",
        Duration.ofSeconds(49_530, 123_456_000),
        ColumnType.of("time"));

    // Then it is a LocalTime
    assertThat(recording.only().arguments()).containsExactly(LocalTime.of(13, 45, 30, 123_456_000));
  }

  @Test
  void aTimeOutsideADayIsBoundAsItsText() throws SQLException {
    // Given PostgreSQL's 24:00:00
    RecordingStatement recording = new RecordingStatement();

    // When it is bound for a PostgreSQL time column
    postgres.bindWrite(recording.statement(), 1, "t", Duration.ofHours(24), ColumnType.of("time"));

    // Then its canonical text goes to the server untyped
    assertThat(recording.only().arguments()).containsExactly("24:00:00", Types.OTHER);
  }

  @Test
  void aWallClockTimestampIntoAnInstantColumnIsUtc() throws SQLException {
    // Given a wall-clock timestamp
    RecordingStatement postgresCall = new RecordingStatement();
    RecordingStatement mariaDbCall = new RecordingStatement();
    LocalDateTime wallClock = LocalDateTime.of(2024, 3, 31, 2, 30);

    // When it is bound for a timestamptz and a MariaDB TIMESTAMP
    postgres.bindWrite(postgresCall.statement(), 1, "at", wallClock, ColumnType.of("timestamptz"));
    mariadb.bindWrite(mariaDbCall.statement(), 1, "at", wallClock, ColumnType.of("TIMESTAMP"));

    // Then it is that instant in UTC (seconds since the epoch for FROM_UNIXTIME)
    assertThat(postgresCall.only().arguments())
        .containsExactly(OffsetDateTime.of(wallClock, ZoneOffset.UTC));
    assertThat((BigDecimal) mariaDbCall.only().arguments().get(0))
        .isEqualByComparingTo(BigDecimal.valueOf(wallClock.toEpochSecond(ZoneOffset.UTC)));
  }

  @Test
  void anInstantIntoAWallClockColumnIsWrittenInUtc() throws SQLException {
    // Given an instant at +02:00
    RecordingStatement recording = new RecordingStatement();
    OffsetDateTime instant = OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2));

    // When it is bound for a PostgreSQL timestamp column
    postgres.bindWrite(recording.statement(), 1, "at", instant, ColumnType.of("timestamp"));

    // Then it is the UTC wall clock
    assertThat(recording.only().arguments()).containsExactly(LocalDateTime.of(2024, 6, 1, 10, 0));
  }

  @Test
  void nullIsBoundAsSqlNull() throws SQLException {
    // Given SQL NULL
    RecordingStatement recording = new RecordingStatement();

    // When it is bound
    mariadb.bindWrite(recording.statement(), 1, "v", null, ColumnType.of("TIMESTAMP"));

    // Then the parameter is set to NULL
    assertThat(recording.only().method()).isEqualTo("setNull");
  }

  @Test
  void mariaDbRefusesAnInstantOutsideItsTimestampRange() {
    // Given an instant after 2038-01-19 03:14:07 UTC, which FROM_UNIXTIME would turn into NULL
    OffsetDateTime late = OffsetDateTime.of(2040, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    // When it is bound for a MariaDB TIMESTAMP
    // Then it is refused, naming the column
    assertThatThrownBy(
            () ->
                mariadb.bindWrite(
                    new RecordingStatement().statement(),
                    1,
                    "created_at",
                    late,
                    ColumnType.of("TIMESTAMP")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column created_at")
        .hasMessageContaining("outside the range");
  }

  @Test
  void mariaDbRefusesADecimalNaN() {
    // Given a PostgreSQL numeric NaN
    // When it is bound for a MariaDB DECIMAL
    // Then it is refused, naming the column
    assertThatThrownBy(
            () ->
                mariadb.bindWrite(
                    new RecordingStatement().statement(),
                    1,
                    "amount",
                    "NaN",
                    ColumnType.of("DECIMAL")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column amount")
        .hasMessageContaining("'NaN'");
  }
}
