package io.cdccompare.verifier.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.TargetKind;
import io.cdccompare.jdbc.db.TargetSchemaException;
import io.cdccompare.jdbc.hash.JdbcKeyReader;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.hash.JdbcRowHasher.Side;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Row changes with the Java values of change events, applied to the real target PostgreSQL and
 * MariaDB: upserts and deletes by a composite key (int, text with separators, instant), every
 * common column type read back with the canonical text its values have; replays skipped by the
 * checkpoint; a missing table or column named; a failing batch leaves neither rows nor checkpoint.
 */
@WithEmbedded({Component.TARGET_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TargetApplierIT {

  private static final String TOPIC = "shop.public.orders";
  private static final Instant NOW = Instant.parse("2024-05-31T10:15:30.123456Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  /** A column: its name, its type on each database and its logical type. */
  private record Column(String name, String postgres, String mariadb, LogicalType type) {}

  private static final List<Column> COLUMNS =
      List.of(
          new Column("k_int", "int4", "INT", LogicalType.INTEGER),
          new Column("k_text", "varchar(20)", "VARCHAR(20)", LogicalType.VARCHAR),
          new Column(
              "k_at",
              "timestamptz(6)",
              "TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)",
              LogicalType.TIMESTAMP_TZ),
          new Column("c_small", "int2", "SMALLINT", LogicalType.SMALLINT),
          new Column("c_dec", "numeric", "DECIMAL(20,6)", LogicalType.DECIMAL),
          new Column("c_double", "float8", "DOUBLE", LogicalType.DOUBLE),
          new Column("c_bool", "boolean", "TINYINT(1)", LogicalType.BOOLEAN),
          new Column("c_text", "text", "TEXT", LogicalType.TEXT),
          new Column("c_bytes", "bytea", "VARBINARY(16)", LogicalType.BINARY),
          new Column("c_uuid", "uuid", "UUID", LogicalType.UUID),
          new Column("c_json", "jsonb", "JSON", LogicalType.JSON),
          new Column("c_date", "date", "DATE", LogicalType.DATE),
          new Column("c_time", "time(6)", "TIME(6)", LogicalType.TIME),
          new Column("c_ts", "timestamp(6)", "DATETIME(6)", LogicalType.TIMESTAMP),
          new Column("c_tstz", "timestamptz(6)", "TIMESTAMP(6) NULL", LogicalType.TIMESTAMP_TZ));

  private static final List<String> KEY = List.of("k_int", "k_text", "k_at");
  private static final KeyCodec CODEC =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR, LogicalType.TIMESTAMP_TZ));
  private static final HashPlan PLAN =
      new HashPlan(
          "orders", COLUMNS.stream().map(c -> HashedColumn.of(c.name(), c.type())).toList());
  private static final OffsetDateTime AT =
      OffsetDateTime.of(2024, 3, 31, 1, 30, 15, 654_321_000, ZoneOffset.UTC);

  private final Map<TargetKind, String> databases = new EnumMap<>(TargetKind.class);
  private final Map<TargetKind, String> bookkeeping = new EnumMap<>(TargetKind.class);
  private final AtomicInteger tables = new AtomicInteger();

  @BeforeAll
  void createDatabases(EmbeddedEnvironment env) throws SQLException {
    for (TargetKind kind : TargetKind.values()) {
      String database = kind.server(env).createDatabase("applier_it");
      databases.put(kind, database);
      try (Connection connection = kind.server(env).connect(database)) {
        bookkeeping.put(
            kind, kind.createBookkeepingSchema(kind.server(env), connection, "applier_it_cdc"));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void insertsUpdatesAndDeletesByCompositeKeyWithEveryColumnType(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a table with a composite key and an applier
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "inserts", table);
      Map<String, Object> a = row(1, "a", AT, 0);
      Map<String, Object> b = row(2, "b,\\x", AT.plusSeconds(1), 1);
      Map<String, Object> c = row(3, "c", AT.plusSeconds(2), 2);
      Map<String, Object> d = nullRow(4, "d", AT);
      Map<String, Object> aUpdated = row(1, "a", AT, 3);

      // When four rows are inserted, then one updated and one (with separators in its key) deleted
      ApplyResult inserted =
          applier.apply(
              ApplyBatch.of(
                  List.of(
                      upsert(table, a, 0),
                      upsert(table, b, 1),
                      upsert(table, c, 2),
                      upsert(table, d, 3))));
      ApplyResult changed =
          applier.apply(
              ApplyBatch.of(
                  List.of(
                      upsert(table, aUpdated, 4),
                      RowChange.delete(table, key(b), RecordPosition.of(TOPIC, 0, 5)))));

      // Then the table holds exactly the last image of each remaining key, value for value
      assertThat(inserted.applied()).isEqualTo(4);
      assertThat(changed.applied()).isEqualTo(2);
      assertThat(changed.skipped()).isZero();
      assertThat(readBack(connection, kind, table)).isEqualTo(expected(List.of(aUpdated, c, d)));
    }
  }

  @Test
  void postgresNumericSpecialsAreWritten(EmbeddedEnvironment env) throws SQLException {
    TargetKind kind = TargetKind.POSTGRES;
    try (Connection connection = connect(env, kind)) {
      // Given decimals as the change events give PostgreSQL's special values: text
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "numeric-specials", table);
      Map<String, Object> nan = row(1, "nan", AT, 0);
      nan.put("c_dec", "NaN");
      Map<String, Object> infinity = row(2, "inf", AT, 1);
      infinity.put("c_dec", "-Infinity");

      // When they are applied
      applier.apply(ApplyBatch.of(List.of(upsert(table, nan, 0), upsert(table, infinity, 1))));

      // Then the numeric column holds them
      assertThat(readBack(connection, kind, table)).isEqualTo(expected(List.of(nan, infinity)));
    }
  }

  @Test
  void mariaDbRefusesADecimalItCannotHoldNamingTheColumn(EmbeddedEnvironment env)
      throws SQLException {
    TargetKind kind = TargetKind.MARIADB;
    try (Connection connection = connect(env, kind)) {
      // Given a PostgreSQL NaN for a MariaDB DECIMAL
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "numeric-refused", table);
      Map<String, Object> nan = row(1, "nan", AT, 0);
      nan.put("c_dec", "NaN");

      // When it is applied
      // Then it is refused with the column and the position, and nothing is written
      assertThatThrownBy(() -> applier.apply(ApplyBatch.of(List.of(upsert(table, nan, 0)))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column c_dec")
          .hasMessageContaining(TOPIC + "-0@0");
      assertThat(readBack(connection, kind, table)).isEmpty();
      assertThat(applier.checkpoint(TOPIC, 0)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aReplayedBatchIsSkippedAndDoesNotOverwriteALaterChange(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given an older image applied at offset 10, then a newer one at offset 11
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "replays", table);
      ApplyBatch older = ApplyBatch.of(List.of(upsert(table, row(1, "a", AT, 0), 10)));
      applier.apply(older);
      applier.apply(ApplyBatch.of(List.of(upsert(table, row(1, "a", AT, 1), 11))));

      // When the older batch is delivered again
      ApplyResult replay = applier.apply(older);

      // Then it was really delivered and skipped, and the newer image stays
      assertThat(replay.skipped()).isEqualTo(1);
      assertThat(replay.applied()).isZero();
      assertThat(readBack(connection, kind, table))
          .isEqualTo(expected(List.of(row(1, "a", AT, 1))));
      assertThat(applier.checkpoint(TOPIC, 0)).map(Checkpoint::offset).contains(11L);
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aBatchOverlappingTheCheckpointAppliesOnlyWhatFollowsIt(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given offset 11 applied
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "overlaps", table);
      applier.apply(ApplyBatch.of(List.of(upsert(table, row(1, "a", AT, 1), 11))));

      // When a batch holds offset 11 again (an older image) and offset 12
      ApplyResult result =
          applier.apply(
              ApplyBatch.of(
                  List.of(
                      upsert(table, row(1, "a", AT, 0), 11),
                      upsert(table, row(2, "b", AT, 2), 12))));

      // Then offset 11 is skipped and offset 12 applied
      assertThat(result.skipped()).isEqualTo(1);
      assertThat(result.applied()).isEqualTo(1);
      assertThat(readBack(connection, kind, table))
          .isEqualTo(expected(List.of(row(1, "a", AT, 1), row(2, "b", AT, 2))));
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void theCheckpointHoldsTheLastRecordsOffsetAndSourcePosition(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a change with its source position, and a marker after it that carries none
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "positions", table);
      SourcePosition source = new SourcePosition(0x16_B374_D848L, 0x16_B374_D900L, 771);
      RowChange change =
          RowChange.upsert(
              table,
              key(row(1, "a", AT, 0)),
              row(1, "a", AT, 0),
              new RecordPosition(TOPIC, 3, 40, source));

      // When both are applied in one batch
      ApplyResult result =
          applier.apply(
              new ApplyBatch(List.of(change), List.of(RecordPosition.of(TOPIC, 3, 41)), List.of()));

      // Then the checkpoint is past the marker, with the change's LSNs and the batch's time
      Checkpoint expected =
          new Checkpoint("positions", TOPIC, 3, 41, source.commitLsn(), source.lsn(), NOW);
      assertThat(result.checkpoints()).containsExactly(expected);
      assertThat(applier.checkpoint(TOPIC, 3)).contains(expected);
      assertThat(applier.checkpoint(TOPIC, 2)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aMissingTableIsNamedAndNothingOfTheBatchIsApplied(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a batch whose second change is for a table the target does not have
      TableRef table = createOrders(connection, kind);
      TableRef missing = TableRef.of("no_such_orders");
      TargetApplier applier =
          TargetApplier.open(
              connection,
              kind.dialect(),
              "missing-table",
              bookkeeping.get(kind),
              List.of(new TargetTable(table, KEY, CODEC), new TargetTable(missing, KEY, CODEC)),
              CLOCK);
      Map<String, Object> a = row(1, "a", AT, 0);
      ApplyBatch batch = ApplyBatch.of(List.of(upsert(table, a, 0), upsert(missing, a, 1)));

      // When it is applied
      // Then the error names the table, and neither the first change nor the checkpoint stays
      assertThatThrownBy(() -> applier.apply(batch))
          .isInstanceOfSatisfying(
              TargetSchemaException.class,
              e -> {
                assertThat(e.table()).isEqualTo(missing);
                assertThat(e.column()).isNull();
              })
          .hasMessageContaining("no_such_orders")
          .hasMessageContaining("UNVERIFIABLE");
      assertThat(readBack(connection, kind, table)).isEmpty();
      assertThat(applier.checkpoint(TOPIC, 0)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aMissingColumnIsNamed(TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a change with a column the target table does not have
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "missing-column", table);
      Map<String, Object> values = row(1, "a", AT, 0);
      values.put("ghost", "boo");

      // When it is applied
      // Then the error names the table and the column
      assertThatThrownBy(() -> applier.apply(ApplyBatch.of(List.of(upsert(table, values, 0)))))
          .isInstanceOfSatisfying(
              TargetSchemaException.class, e -> assertThat(e.column()).isEqualTo("ghost"))
          .hasMessageContaining("'ghost'")
          .hasMessageContaining(table.table());
      assertThat(applier.checkpoint(TOPIC, 0)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aStatementRefusedMidBatchRollsBackWhatWasWrittenBeforeIt(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a batch that writes one row, deletes another (which sends the first write), then
      // writes a value a smallint cannot hold
      TableRef table = createOrders(connection, kind);
      TargetApplier applier = applier(connection, kind, "rollback", table);
      Map<String, Object> tooBig = row(2, "b", AT, 0);
      tooBig.put("c_small", 100_000);
      ApplyBatch batch =
          ApplyBatch.of(
              List.of(
                  upsert(table, row(1, "a", AT, 0), 0),
                  RowChange.delete(table, key(row(9, "z", AT, 0)), RecordPosition.of(TOPIC, 0, 1)),
                  upsert(table, tooBig, 2)));

      // When it is applied
      // Then the target's refusal names the table and the change's position, but no row data
      assertThatThrownBy(() -> applier.apply(batch))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(table.table())
          .hasMessageContaining(TOPIC + "-0@2")
          .hasMessageNotContaining("José");

      // And the first row and the checkpoint were rolled back with it
      assertThat(readBack(connection, kind, table)).isEmpty();
      assertThat(applier.checkpoint(TOPIC, 0)).isEmpty();
      assertThat(connection.getAutoCommit()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void appliersOpenedAtOnceOnAFreshTargetAllCreateTheBookkeepingTables(
      TargetKind kind, EmbeddedEnvironment env) throws Exception {
    // Given a verifier's stream threads opening their targets at the same moment, on a target
    // without bookkeeping tables yet, again and again (PostgreSQL's CREATE TABLE IF NOT EXISTS is
    // not safe against itself: the loser of the race fails on the catalog's unique index)
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 8; round++) {
        String schema;
        try (Connection connection = connect(env, kind)) {
          schema =
              kind.createBookkeepingSchema(
                  kind.server(env), connection, "race_" + round + "_" + tables.incrementAndGet());
        }
        CyclicBarrier together = new CyclicBarrier(threads);
        List<Future<Void>> opened = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          opened.add(
              pool.submit(
                  () -> {
                    try (Connection connection = connect(env, kind)) {
                      together.await(30, TimeUnit.SECONDS);
                      TargetApplier.open(
                          connection, kind.dialect(), "race", schema, List.of(), CLOCK);
                    }
                    return null;
                  }));
        }

        // Then every one opens, and the tables are there once
        for (Future<Void> open : opened) {
          open.get(60, TimeUnit.SECONDS);
        }
        try (Connection connection = connect(env, kind);
            ResultSet rows =
                connection
                    .getMetaData()
                    .getTables(
                        kind == TargetKind.MARIADB ? schema : null,
                        kind == TargetKind.MARIADB ? null : schema,
                        "cdc_compare%",
                        new String[] {"TABLE"})) {
          int found = 0;
          while (rows.next()) {
            found++;
          }
          assertThat(found).as("bookkeeping tables in " + schema).isEqualTo(2);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private Connection connect(EmbeddedEnvironment env, TargetKind kind) throws SQLException {
    return kind.server(env).connect(databases.get(kind));
  }

  private TargetApplier applier(
      Connection connection, TargetKind kind, String application, TableRef table)
      throws SQLException {
    return TargetApplier.open(
        connection,
        kind.dialect(),
        application,
        bookkeeping.get(kind),
        List.of(new TargetTable(table, KEY, CODEC)),
        CLOCK);
  }

  private TableRef createOrders(Connection connection, TargetKind kind) throws SQLException {
    String name = "orders_" + tables.incrementAndGet();
    String columns =
        COLUMNS.stream()
            .map(c -> c.name() + " " + kind.type(c.postgres(), c.mariadb()))
            .collect(Collectors.joining(", "));
    TargetKind.execute(
        connection,
        "CREATE TABLE "
            + name
            + " ("
            + columns
            + ", PRIMARY KEY ("
            + String.join(", ", KEY)
            + "))"
            + kind.tableOptions());
    return TableRef.of(name);
  }

  /** A row image as a change event gives it; {@code variant} changes every non-key value. */
  private static Map<String, Object> row(int id, String text, OffsetDateTime at, int variant) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("k_int", id);
    values.put("k_text", text);
    values.put("k_at", at);
    values.put("c_small", (short) (variant - 3));
    values.put("c_dec", new BigDecimal("1234.500000").add(BigDecimal.valueOf(variant)));
    values.put("c_double", 0.1 + variant);
    values.put("c_bool", variant % 2 == 0);
    values.put("c_text", " José 😀, \\ N " + variant);
    values.put("c_bytes", new byte[] {0, (byte) 0xff, (byte) variant});
    values.put(
        "c_uuid",
        variant % 2 == 0
            ? UUID.fromString("0e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5" + variant)
            : "ffffffff-0000-4000-8000-00000000000" + variant);
    values.put("c_json", "{\"b\": [1.50, \"x\"], \"a\": " + variant + "}");
    values.put("c_date", LocalDate.of(2024, 2, 29).plusDays(variant));
    values.put(
        "c_time",
        variant == 2 ? Duration.ofHours(24) : Duration.ofSeconds(49_530 + variant, 123_456_000));
    values.put("c_ts", LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_456_000).plusDays(variant));
    values.put(
        "c_tstz",
        OffsetDateTime.of(2024, 10, 27, 1, 30, 0, 1_000, ZoneOffset.UTC).plusHours(variant));
    return values;
  }

  /** A row whose non-key columns are all NULL. */
  private static Map<String, Object> nullRow(int id, String text, OffsetDateTime at) {
    Map<String, Object> values = row(id, text, at, 0);
    values.replaceAll((column, value) -> KEY.contains(column) ? value : null);
    return values;
  }

  private static String key(Map<String, Object> row) {
    return CODEC.encode(KEY.stream().map(row::get).toList());
  }

  private static RowChange upsert(TableRef table, Map<String, Object> row, long offset) {
    return RowChange.upsert(table, key(row), row, RecordPosition.of(TOPIC, 0, offset));
  }

  /** Encoded key → canonical row text, computed from the values alone. */
  private static Map<String, String> expected(List<Map<String, Object>> rows) {
    RowHasher hasher = new RowHasher(PLAN.columns(), CanonicalFormat.STRICT, HashFunction.md5());
    Map<String, String> texts = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      Object[] values = COLUMNS.stream().map(c -> row.get(c.name())).toArray();
      texts.put(key(row), hasher.canonicalText(values));
    }
    return texts;
  }

  /** Encoded key → canonical row text, read back from the target over JDBC. */
  private static Map<String, String> readBack(
      Connection connection, TargetKind kind, TableRef table) throws SQLException {
    Dialect dialect = kind.dialect();
    Map<String, ColumnType> types = TableCatalog.describe(connection, dialect, table);
    JdbcKeyReader keys = new JdbcKeyReader(dialect, CODEC, KEY, types, 1);
    JdbcRowHasher hasher =
        new JdbcRowHasher(
            PLAN,
            Side.TARGET,
            dialect,
            types,
            CanonicalFormat.STRICT,
            HashFunction.md5(),
            KEY.size() + 1);
    List<String> selectList = new ArrayList<>(keys.selectList());
    selectList.addAll(hasher.selectList());
    Map<String, String> texts = new LinkedHashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(dialect.selectAllSql(table, selectList, KEY))) {
      while (rows.next()) {
        texts.put(keys.encode(rows), hasher.canonicalText(rows));
      }
    }
    return texts;
  }
}
