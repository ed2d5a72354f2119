package io.cdccompare.events;

import static io.cdccompare.events.DebeziumSchemas.named;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.CanonicalValues;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * The other way round from the unit tests: values as Debezium delivers them are turned into Java
 * values ({@link EventValues}), written into PostgreSQL and MariaDB the way an apply binds them
 * (the jdbc dialects), read back over JDBC and hashed; every row's hash equals the hash of the
 * change event itself.
 */
@WithEmbedded({Component.TARGET_POSTGRES, Component.MARIADB})
class EventApplyParityIT {

  /** A column: its types on each database, its logical type and its Debezium field schema. */
  record Column(
      String name, String postgresType, String mariaDbType, LogicalType type, Schema schema) {}

  private static final List<Column> COLUMNS =
      List.of(
          new Column("c_int", "int4", "INT", LogicalType.INTEGER, DebeziumSchemas.INT32),
          new Column(
              "c_dec",
              "numeric(12,2)",
              "DECIMAL(12,2)",
              LogicalType.DECIMAL,
              DebeziumSchemas.STRING),
          new Column(
              "c_precise",
              "numeric(20,6)",
              "DECIMAL(20,6)",
              LogicalType.DECIMAL,
              DebeziumSchemas.decimal(6)),
          new Column(
              "c_num",
              "numeric",
              "DECIMAL(65,30)",
              LogicalType.DECIMAL,
              DebeziumSchemas.VARIABLE_SCALE_DECIMAL),
          new Column("c_real", "real", "FLOAT", LogicalType.REAL, DebeziumSchemas.FLOAT32),
          new Column(
              "c_double",
              "double precision",
              "DOUBLE",
              LogicalType.DOUBLE,
              DebeziumSchemas.FLOAT64),
          new Column(
              "c_bool", "boolean", "TINYINT(1)", LogicalType.BOOLEAN, DebeziumSchemas.BOOLEAN),
          new Column("c_char", "char(8)", "CHAR(8)", LogicalType.CHAR, DebeziumSchemas.STRING),
          new Column("c_text", "text", "TEXT", LogicalType.TEXT, DebeziumSchemas.STRING),
          new Column(
              "c_bytes", "bytea", "VARBINARY(16)", LogicalType.BINARY, DebeziumSchemas.BYTES),
          new Column(
              "c_uuid",
              "uuid",
              "UUID",
              LogicalType.UUID,
              named(Schema.Type.STRING, DebeziumSemanticTypes.UUID)),
          new Column(
              "c_json",
              "jsonb",
              "JSON",
              LogicalType.JSON,
              named(Schema.Type.STRING, DebeziumSemanticTypes.JSON)),
          new Column(
              "c_date",
              "date",
              "DATE",
              LogicalType.DATE,
              named(Schema.Type.INT32, DebeziumSemanticTypes.DATE)),
          new Column(
              "c_time",
              "time(6)",
              "TIME(6)",
              LogicalType.TIME,
              named(Schema.Type.INT64, DebeziumSemanticTypes.MICRO_TIME)),
          new Column(
              "c_ts",
              "timestamp(6)",
              "DATETIME(6)",
              LogicalType.TIMESTAMP,
              named(Schema.Type.INT64, DebeziumSemanticTypes.MICRO_TIMESTAMP)),
          new Column(
              "c_tstz",
              "timestamptz(6)",
              "TIMESTAMP(6) NULL",
              LogicalType.TIMESTAMP_TZ,
              named(Schema.Type.STRING, DebeziumSemanticTypes.ZONED_TIMESTAMP)));

  private static final Schema ROW = rowSchema();

  private static Schema rowSchema() {
    SchemaBuilder builder =
        SchemaBuilder.struct().name("shop.public.events.Value").field("id", Schema.INT64_SCHEMA);
    COLUMNS.forEach(c -> builder.field(c.name(), c.schema()));
    return builder.build();
  }

  private static final HashPlan PLAN = plan();

  private static HashPlan plan() {
    List<HashedColumn> columns = new ArrayList<>();
    columns.add(HashedColumn.of("id", LogicalType.BIGINT));
    COLUMNS.forEach(c -> columns.add(HashedColumn.of(c.name(), c.type())));
    return new HashPlan("events", columns);
  }

  /** After images as Debezium's PostgreSQL connector would send them, with the pinned settings. */
  private static List<Struct> events() {
    Struct typical =
        new Struct(ROW)
            .put("id", 1L)
            .put("c_int", 42)
            .put("c_dec", "1234.50")
            .put("c_precise", new BigDecimal("-0.000100"))
            .put("c_num", DebeziumSchemas.variableScaleDecimal(new BigDecimal("12345.678900")))
            .put("c_real", 1.2345678f)
            .put("c_double", 0.30000000000000004)
            .put("c_bool", true)
            .put("c_char", "ab      ")
            .put("c_text", " José 😀, \\ N")
            .put("c_bytes", ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 0x10}))
            .put("c_uuid", "0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b")
            .put("c_json", "{\"b\": [1.50, \"x\"], \"a\": null}")
            .put("c_date", (int) LocalDate.of(2024, 2, 29).toEpochDay())
            .put("c_time", 49_530_123_456L)
            .put("c_ts", micros(LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_456_000)))
            .put("c_tstz", "2024-10-27T01:30:00.000001Z");
    Struct edges =
        new Struct(ROW)
            .put("id", 2L)
            .put("c_int", Integer.MIN_VALUE)
            .put("c_dec", "-0.01")
            .put("c_precise", new BigDecimal("99999999999999.999999"))
            .put(
                "c_num",
                DebeziumSchemas.variableScaleDecimal(
                    new BigDecimal("-0.000000000000000000000000000001")))
            .put("c_real", -Float.MAX_VALUE)
            .put("c_double", 2e23)
            .put("c_bool", false)
            .put("c_char", "")
            .put("c_text", "")
            .put("c_bytes", ByteBuffer.wrap(new byte[0]))
            .put("c_uuid", "FFFFFFFF-0000-4000-8000-00000000000A")
            .put("c_json", "[]")
            .put("c_date", (int) LocalDate.of(1000, 1, 1).toEpochDay())
            .put("c_time", 86_400_000_000L)
            .put("c_ts", micros(LocalDateTime.of(1000, 1, 1, 0, 0, 0, 1_000)))
            .put("c_tstz", "1970-01-01T00:00:01Z");
    Struct nulls = new Struct(ROW).put("id", 3L);
    return List.of(typical, edges, nulls);
  }

  @Test
  void eventValuesWrittenToEachDatabaseReadBackWithTheEventsHash(EmbeddedEnvironment env)
      throws SQLException {
    // Given change events and their row hashes
    StructRowHasher eventHasher =
        new StructRowHasher(PLAN, CanonicalFormat.STRICT, HashFunction.md5());
    Map<Long, String> expected = new LinkedHashMap<>();
    for (Struct event : events()) {
      expected.put(event.getInt64("id"), eventHasher.hash(event).hex());
    }

    // When their values are applied to PostgreSQL and MariaDB and read back over JDBC
    Map<Long, String> postgres = applyAndHash(env.targetPostgres(), "apply_events_pg", false);
    Map<Long, String> mariadb = applyAndHash(env.mariadb(), "apply_events", true);

    // Then every row hashes as its event did, on both databases
    assertThat(postgres).isEqualTo(expected);
    assertThat(mariadb).isEqualTo(expected);
  }

  private static Map<Long, String> applyAndHash(JdbcServer server, String database, boolean mariadb)
      throws SQLException {
    String db = server.createDatabase(database);
    try (Connection connection = server.connect(db)) {
      if (mariadb) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("SET time_zone = '-07:00'");
        }
      }
      createTable(connection, mariadb);
      Dialect dialect = Dialect.forJdbcUrl(connection.getMetaData().getURL());
      TableRef table = TableRef.of("events");
      Map<String, ColumnType> types = TableCatalog.describe(connection, dialect, table);
      apply(connection, dialect, types);
      JdbcRowHasher hasher =
          new JdbcRowHasher(
              PLAN, Side.TARGET, dialect, types, CanonicalFormat.STRICT, HashFunction.md5(), 1);
      Map<Long, String> hashes = new LinkedHashMap<>();
      try (Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  dialect.selectAllSql(table, hasher.selectList(), List.of("id")))) {
        while (rows.next()) {
          hashes.put(rows.getLong(1), hasher.hash(rows).hex());
        }
      }
      return hashes;
    }
  }

  private static void createTable(Connection connection, boolean mariadb) throws SQLException {
    String columns =
        COLUMNS.stream()
            .map(c -> c.name() + " " + (mariadb ? c.mariaDbType() : c.postgresType()))
            .collect(Collectors.joining(", "));
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE events (id bigint PRIMARY KEY, "
              + columns
              + ")"
              + (mariadb ? " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : ""));
    }
  }

  /**
   * Binds each event value as an apply would: the Java value of the event, bound by the dialect.
   */
  private static void apply(Connection connection, Dialect dialect, Map<String, ColumnType> types)
      throws SQLException {
    List<String> placeholders = new ArrayList<>();
    placeholders.add("?");
    COLUMNS.forEach(
        c -> placeholders.add(dialect.access(c.name(), types.get(c.name())).placeholder()));
    String sql =
        "INSERT INTO events (id, "
            + COLUMNS.stream().map(Column::name).collect(Collectors.joining(", "))
            + ") VALUES ("
            + String.join(", ", placeholders)
            + ")";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (Struct event : events()) {
        statement.setLong(1, event.getInt64("id"));
        for (int i = 0; i < COLUMNS.size(); i++) {
          Column column = COLUMNS.get(i);
          Object value = EventValues.toJava(column.schema(), event.get(column.name()));
          if (value instanceof Duration) {
            // no JDBC type holds a time outside a day: bind its canonical text
            value = CanonicalValues.canonical(LogicalType.TIME, value);
          }
          if (value == null) {
            statement.setNull(i + 2, Types.NULL);
          } else {
            dialect.bind(statement, i + 2, value, types.get(column.name()));
          }
        }
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  private static long micros(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + value.getNano() / 1_000;
  }
}
