package io.cdccompare.jdbc;

import io.cdccompare.jdbc.ParityColumn.Write;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The parity table on both databases: one column per type of the row hash rules, the same logical
 * rows written into each.
 */
final class ParityTables {

  static final List<ParityColumn> COLUMNS =
      List.of(
          new ParityColumn("c_smallint", "int2", "SMALLINT", Write.PLAIN),
          new ParityColumn("c_int", "int4", "INT", Write.PLAIN),
          new ParityColumn("c_bigint", "int8", "BIGINT", Write.PLAIN),
          new ParityColumn("c_dec2", "numeric(12,2)", "DECIMAL(12,2)", Write.PLAIN),
          new ParityColumn("c_dec6", "numeric(24,6)", "DECIMAL(24,6)", Write.PLAIN),
          new ParityColumn("c_dec0", "numeric(20,0)", "DECIMAL(20,0)", Write.PLAIN),
          new ParityColumn("c_real", "real", "FLOAT", Write.PLAIN),
          new ParityColumn("c_double", "double precision", "DOUBLE", Write.PLAIN),
          new ParityColumn("c_bool", "boolean", "TINYINT(1)", Write.PLAIN),
          new ParityColumn("c_char", "char(12)", "CHAR(12)", Write.PLAIN),
          new ParityColumn("c_varchar", "varchar(40)", "VARCHAR(40)", Write.PLAIN),
          new ParityColumn("c_text", "text", "TEXT", Write.PLAIN),
          new ParityColumn("c_bytes", "bytea", "VARBINARY(64)", Write.PLAIN),
          new ParityColumn("c_blob", "bytea", "LONGBLOB", Write.PLAIN),
          new ParityColumn("c_uuid", "uuid", "UUID", Write.UUID_NATIVE),
          new ParityColumn("c_uuid_char", "uuid", "CHAR(36)", Write.UUID_CHAR),
          new ParityColumn("c_jsonb", "jsonb", "JSON", Write.UNTYPED_TEXT),
          new ParityColumn("c_json", "json", "LONGTEXT", Write.UNTYPED_TEXT),
          new ParityColumn("c_date", "date", "DATE", Write.PLAIN),
          new ParityColumn("c_time", "time(6)", "TIME(6)", Write.UNTYPED_TEXT),
          new ParityColumn("c_ts0", "timestamp(0)", "DATETIME(0)", Write.PLAIN),
          new ParityColumn("c_ts3", "timestamp(3)", "DATETIME(3)", Write.PLAIN),
          new ParityColumn("c_ts6", "timestamp(6)", "DATETIME(6)", Write.PLAIN),
          new ParityColumn(
              "c_tstz", "timestamptz(6)", "TIMESTAMP(6) NULL", Write.INSTANT_TIMESTAMP),
          new ParityColumn(
              "c_tstz_utc", "timestamptz(6)", "DATETIME(6)", Write.INSTANT_UTC_DATETIME));

  private ParityTables() {}

  static void createPostgres(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE "
              + table
              + " (id bigint PRIMARY KEY, "
              + COLUMNS.stream()
                  .map(c -> c.name() + " " + c.postgresType())
                  .collect(Collectors.joining(", "))
              + ")");
    }
  }

  static void createMariaDb(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE "
              + table
              + " (id BIGINT PRIMARY KEY, "
              + COLUMNS.stream()
                  .map(c -> c.name() + " " + c.mariaDbType())
                  .collect(Collectors.joining(", "))
              + ") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
    }
  }

  static void insertPostgres(Connection connection, String table, List<ParityRow> rows)
      throws SQLException {
    String sql = insertSql(table, COLUMNS.stream().map(ParityColumn::postgresPlaceholder).toList());
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (ParityRow row : rows) {
        statement.setLong(1, row.id());
        for (int i = 0; i < COLUMNS.size(); i++) {
          COLUMNS.get(i).bindPostgres(statement, i + 2, row.values().get(i));
        }
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  static void insertMariaDb(Connection connection, String table, List<ParityRow> rows)
      throws SQLException {
    String sql = insertSql(table, COLUMNS.stream().map(ParityColumn::mariaDbPlaceholder).toList());
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (ParityRow row : rows) {
        statement.setLong(1, row.id());
        for (int i = 0; i < COLUMNS.size(); i++) {
          COLUMNS.get(i).bindMariaDb(statement, i + 2, row.values().get(i), row.id());
        }
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  private static String insertSql(String table, List<String> placeholders) {
    return "INSERT INTO "
        + table
        + " (id, "
        + COLUMNS.stream().map(ParityColumn::name).collect(Collectors.joining(", "))
        + ") VALUES (?, "
        + String.join(", ", placeholders)
        + ")";
  }
}
