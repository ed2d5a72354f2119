package io.cdccompare.verifier.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.RowHasher;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.WithEmbedded;
import io.cdccompare.jdbc.TargetKind;
import io.cdccompare.jdbc.db.TargetSchemaException;
import io.cdccompare.jdbc.sql.TableRef;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A chunk of a 1 000-row table verified on the real target PostgreSQL and MariaDB, with the
 * source's hashes computed from the rows' values alone: after one row is changed, one deleted and
 * one inserted inside the compared key range, exactly those are failed, missed and extra, with
 * their keys; a changed row whose key is in flight is in flight; rows of other partitions and rows
 * outside the range are not counted. A key-list chunk (a recheck's) is decided by looking its keys
 * up, and counts no row outside its list.
 */
@WithEmbedded({Component.TARGET_POSTGRES, Component.MARIADB})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChunkVerifierIT {

  private static final int ROWS = 1_000;
  private static final int FIRST_COMPARED = 101;
  private static final int LAST = 900;
  private static final int PARTITIONS = 3;
  private static final int PARTITION = 1;
  private static final List<String> KEY = List.of("id", "code");
  private static final KeyCodec CODEC =
      new KeyCodec(List.of(LogicalType.INTEGER, LogicalType.VARCHAR));
  private static final HashPlan PLAN =
      new HashPlan(
          "items",
          List.of(
              HashedColumn.of("id", LogicalType.INTEGER),
              HashedColumn.of("code", LogicalType.VARCHAR),
              HashedColumn.of("amount", LogicalType.DECIMAL),
              HashedColumn.of("note", LogicalType.TEXT),
              HashedColumn.of("at", LogicalType.TIMESTAMP)));

  private final Map<TargetKind, String> databases = new EnumMap<>(TargetKind.class);
  private final AtomicInteger tables = new AtomicInteger();

  @BeforeAll
  void createDatabases(EmbeddedEnvironment env) {
    for (TargetKind kind : TargetKind.values()) {
      databases.put(kind, kind.server(env).createDatabase("verify_it"));
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void findsExactlyTheInjectedFailedMissedAndExtraRowsWithTheirKeys(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given 1 000 rows on the target and the source's hashes of this partition's rows in the
      // compared key range [101, 900]
      TableRef table = createItems(connection, kind);
      Map<String, byte[]> chunk = sourceHashes(id -> id >= FIRST_COMPARED && id <= LAST);
      List<String> chunkKeys = new ArrayList<>(chunk.keySet());
      assertThat(chunk).hasSizeGreaterThan(200);

      // And on the target: one row changed, one deleted, one inserted in this partition, one
      // inserted in another partition, one inserted after the range, one changed while in flight
      String failed = chunkKeys.get(10);
      String missed = chunkKeys.get(20);
      String inFlight = chunkKeys.get(30);
      update(connection, table, failed, "changed on the target");
      delete(connection, table, missed);
      update(connection, table, inFlight, "changed in flight");
      String extra = insert(connection, table, 500, PARTITION);
      String otherPartition = insert(connection, table, 501, PARTITION + 1);
      String afterRange = insert(connection, table, 950, PARTITION);

      // When the chunk is verified
      ChunkVerdict verdict =
          verifier(connection, kind).verify(check(table, chunk, Set.of(inFlight)));

      // Then exactly the injected differences are found, with their keys
      assertThat(verdict.failedKeys()).containsExactly(failed);
      assertThat(verdict.missedKeys()).containsExactly(missed);
      assertThat(verdict.extraKeys())
          .containsExactly(extra)
          .doesNotContain(otherPartition, afterRange);
      assertThat(verdict.inFlightKeys()).containsExactly(inFlight);
      assertThat(verdict.matched()).isEqualTo(chunk.size() - 3);
      assertThat(connection.getAutoCommit()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void theChunksOfAFullCompareMeetSoEveryExtraRowIsFoundOnceWhereverItsKeyIs(
      TargetKind kind, EmbeddedEnvironment env) throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a source of 1 000 rows compared at deep=100 in three chunks: (-inf, 300], (300, 700]
      // and (700, +inf), each chunk and partition with its hashes
      TableRef table = createItems(connection, kind);
      List<ComparedRange> ranges =
          List.of(
              ComparedRange.after(null, key(300)),
              ComparedRange.after(key(300), key(700)),
              ComparedRange.after(key(700), null));
      List<IntPredicate> rows =
          List.of(id -> id <= 300, id -> id > 300 && id <= 700, id -> id > 700);

      // And on the target rows the source never had: below its first key, between two chunks
      // sharing the first key column (300 with a code after chunk 1's last key), and above its last
      List<String> extras = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        extras.add(insert(connection, table, 0, p));
        extras.add(insert(connection, table, 300, p));
        extras.add(insert(connection, table, 1_001, p));
      }

      // When every chunk is verified in every partition
      List<String> found = new ArrayList<>();
      long matched = 0;
      ChunkVerifier verifier = verifier(connection, kind);
      for (int c = 0; c < ranges.size(); c++) {
        for (int p = 0; p < PARTITIONS; p++) {
          ChunkVerdict verdict =
              verifier.verify(
                  new ChunkCheck(
                      table,
                      PLAN,
                      KEY,
                      CODEC,
                      sourceHashes(rows.get(c), p),
                      p,
                      PARTITIONS,
                      ranges.get(c),
                      Set.of()));
          found.addAll(verdict.extraKeys());
          matched += verdict.matched();
          assertThat(verdict.failedKeys()).isEmpty();
          assertThat(verdict.missedKeys()).isEmpty();
        }
      }

      // Then each extra row was found exactly once and every source row matched once
      assertThat(found).containsExactlyInAnyOrderElementsOf(extras);
      assertThat(matched).isEqualTo(ROWS);
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void anEmptySourceTableFindsEveryTargetRowExtra(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given 1 000 rows on the target and an empty source: one chunk over the whole key space
      TableRef table = createItems(connection, kind);

      // When it is verified in one partition
      ChunkVerdict verdict =
          verifier(connection, kind)
              .verify(
                  new ChunkCheck(
                      table,
                      PLAN,
                      KEY,
                      CODEC,
                      Map.of(),
                      PARTITION,
                      PARTITIONS,
                      ComparedRange.EVERYTHING,
                      Set.of()));

      // Then every target row of that partition is extra
      assertThat(verdict.extraKeys())
          .containsExactlyInAnyOrderElementsOf(sourceHashes(id -> true).keySet());
      assertThat(verdict.matched()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void anUnchangedTargetMatchesEveryRow(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a target equal to the source
      TableRef table = createItems(connection, kind);
      Map<String, byte[]> chunk = sourceHashes(id -> id >= FIRST_COMPARED && id <= LAST);

      // When the chunk is verified
      ChunkVerdict verdict = verifier(connection, kind).verify(check(table, chunk, Set.of()));

      // Then every row of the partition in the range matched and nothing else was counted
      assertThat(verdict)
          .isEqualTo(ChunkVerdict.of(chunk.size(), List.of(), List.of(), List.of(), List.of()));
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aChunkThatComparedNothingReadsNothing(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a chunk without a compared key range, for a table the target does not even have
      ChunkCheck nothing =
          new ChunkCheck(
              TableRef.of("no_such_items"),
              PLAN,
              KEY,
              CODEC,
              Map.of(),
              PARTITION,
              PARTITIONS,
              null,
              Set.of("1,c1"));

      // When it is verified
      ChunkVerdict verdict = verifier(connection, kind).verify(nothing);

      // Then nothing was read and the verdict is empty
      assertThat(verdict).isEqualTo(ChunkVerdict.empty());
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aKeyListChunkDecidesExactlyItsKeysByLookUp(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given 1 000 rows on the target and a key-list chunk (a recheck) of this partition's rows
      // with an id divisible by 20, scattered over the table
      TableRef table = createItems(connection, kind);
      Map<String, byte[]> chunk = sourceHashes(id -> id % 20 == 0);
      List<String> chunkKeys = new ArrayList<>(chunk.keySet());
      assertThat(chunk).hasSizeGreaterThan(5);

      // And on the target: a listed row changed, one deleted, one changed while in flight
      String failed = chunkKeys.get(0);
      String missed = chunkKeys.get(1);
      String inFlight = chunkKeys.get(2);
      update(connection, table, failed, "changed on the target");
      delete(connection, table, missed);
      update(connection, table, inFlight, "changed in flight");

      // And absent keys (the source held no row): one the target has, one it lacks too, one it has
      // that is in flight and one it lacks that is in flight
      String extra = insert(connection, table, 2_000, PARTITION);
      String absentEverywhere = keyIn(2_001, PARTITION);
      String absentInFlightFound = insert(connection, table, 2_002, PARTITION);
      String absentInFlightNotFound = keyIn(2_003, PARTITION);

      // And differences outside the key list, in this partition: a changed row, a deleted row, a
      // row the source does not have
      List<String> unlisted = new ArrayList<>(sourceHashes(id -> id % 20 == 7).keySet());
      update(connection, table, unlisted.get(0), "changed, not listed");
      delete(connection, table, unlisted.get(1));
      String unlistedExtra = insert(connection, table, 503, PARTITION);

      // When the key-list chunk is verified
      ChunkVerdict verdict =
          verifier(connection, kind)
              .verify(
                  ChunkCheck.keyList(
                      table,
                      PLAN,
                      KEY,
                      CODEC,
                      chunk,
                      Set.of(extra, absentEverywhere, absentInFlightFound, absentInFlightNotFound),
                      PARTITION,
                      PARTITIONS,
                      Set.of(inFlight, absentInFlightFound, absentInFlightNotFound)));

      // Then exactly the listed keys are decided: failed, missed, extra and in flight with their
      // keys, every other listed row matched
      assertThat(verdict.failedKeys()).containsExactly(failed);
      assertThat(verdict.missedKeys()).containsExactly(missed);
      assertThat(verdict.extraKeys()).containsExactly(extra);
      assertThat(verdict.inFlightKeys())
          .containsExactlyInAnyOrder(inFlight, absentInFlightFound, absentInFlightNotFound);
      assertThat(verdict.matched()).isEqualTo(chunk.size() - 3);

      // And nothing outside the list was counted: no unlisted difference, and every count is a
      // listed key
      assertThat(verdict.failedKeys()).doesNotContain(unlisted.get(0));
      assertThat(verdict.missedKeys()).doesNotContain(unlisted.get(1));
      assertThat(verdict.extraKeys()).doesNotContain(unlistedExtra, absentEverywhere);
      assertThat(verdict.compared()).isEqualTo(chunk.size() + 3);
      assertThat(connection.getAutoCommit()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aKeyListChunkOfAnUnchangedTargetMatchesOnlyItsKeys(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a target equal to the source except rows outside the key list
      TableRef table = createItems(connection, kind);
      Map<String, byte[]> chunk = sourceHashes(id -> id > 990);
      String outside = new ArrayList<>(sourceHashes(id -> id <= 10).keySet()).get(0);
      update(connection, table, outside, "changed, not listed");

      // When a key-list chunk of the last ten ids is verified
      ChunkVerdict verdict =
          verifier(connection, kind)
              .verify(
                  ChunkCheck.keyList(
                      table, PLAN, KEY, CODEC, chunk, Set.of(), PARTITION, PARTITIONS, Set.of()));

      // Then its keys matched and nothing else was counted
      assertThat(verdict)
          .isEqualTo(ChunkVerdict.of(chunk.size(), List.of(), List.of(), List.of(), List.of()));
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aKeyListChunkWithoutKeysReadsNothing(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a key-list chunk that gives this target no key, for a table the target lacks
      ChunkCheck nothing =
          ChunkCheck.keyList(
              TableRef.of("no_such_items"),
              PLAN,
              KEY,
              CODEC,
              Map.of(),
              Set.of(),
              PARTITION,
              PARTITIONS,
              Set.of());

      // When it is verified
      ChunkVerdict verdict = verifier(connection, kind).verify(nothing);

      // Then nothing was read and the verdict is empty
      assertThat(verdict).isEqualTo(ChunkVerdict.empty());
    }
  }

  @ParameterizedTest
  @EnumSource(TargetKind.class)
  void aComparedColumnMissingOnTheTargetIsNamed(TargetKind kind, EmbeddedEnvironment env)
      throws SQLException {
    try (Connection connection = connect(env, kind)) {
      // Given a target table without the column "note"
      TableRef table = createItems(connection, kind);
      TargetKind.execute(connection, "ALTER TABLE " + table.table() + " DROP COLUMN note");
      Map<String, byte[]> chunk = sourceHashes(id -> id >= FIRST_COMPARED && id <= LAST);

      // When the chunk is verified
      // Then the error names the table and the column
      assertThatThrownBy(() -> verifier(connection, kind).verify(check(table, chunk, Set.of())))
          .isInstanceOfSatisfying(
              TargetSchemaException.class, e -> assertThat(e.column()).isEqualTo("note"))
          .hasMessageContaining(table.table());
    }
  }

  private Connection connect(EmbeddedEnvironment env, TargetKind kind) throws SQLException {
    return kind.server(env).connect(databases.get(kind));
  }

  private static ChunkVerifier verifier(Connection connection, TargetKind kind)
      throws SQLException {
    return ChunkVerifier.open(
        connection, kind.dialect(), CanonicalFormat.COMPATIBLE, HashFunction.md5(), 100);
  }

  private static ChunkCheck check(TableRef table, Map<String, byte[]> chunk, Set<String> inFlight) {
    return new ChunkCheck(
        table,
        PLAN,
        KEY,
        CODEC,
        chunk,
        PARTITION,
        PARTITIONS,
        ComparedRange.between(key(FIRST_COMPARED), key(LAST)),
        inFlight);
  }

  private TableRef createItems(Connection connection, TargetKind kind) throws SQLException {
    String name = "items_" + tables.incrementAndGet();
    TargetKind.execute(
        connection,
        "CREATE TABLE "
            + name
            + " (id "
            + kind.type("int4", "INT")
            + ", code "
            + kind.type("varchar(20)", "VARCHAR(20)")
            + ", amount "
            + kind.type("numeric(12,2)", "DECIMAL(12,2)")
            + ", note "
            + kind.type("text", "TEXT")
            + ", at "
            + kind.type("timestamp(6)", "DATETIME(6)")
            + ", PRIMARY KEY (id, code))"
            + kind.tableOptions());
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + name + " VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 1; id <= ROWS; id++) {
        Object[] row = row(id);
        for (int i = 0; i < row.length; i++) {
          insert.setObject(i + 1, row[i]);
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return TableRef.of(name);
  }

  /** The values of row {@code id}, as the source holds them. */
  private static Object[] row(int id) {
    return new Object[] {
      id,
      code(id),
      BigDecimal.valueOf(id * 125L, 2),
      "note " + id,
      LocalDateTime.of(2024, 1, 1, 0, 0).plusMinutes(id).plusNanos(id * 1_000L)
    };
  }

  private static String code(int id) {
    return "c" + (id % 7);
  }

  private static String key(int id) {
    return CODEC.encode(List.of(id, code(id)));
  }

  /** Encoded key → hash of the rows of this partition that {@code compared} selects. */
  private static Map<String, byte[]> sourceHashes(IntPredicate compared) {
    return sourceHashes(compared, PARTITION);
  }

  /** Encoded key → hash of the rows of {@code partition} that {@code compared} selects. */
  private static Map<String, byte[]> sourceHashes(IntPredicate compared, int partition) {
    RowHasher hasher =
        new RowHasher(PLAN.columns(), CanonicalFormat.COMPATIBLE, HashFunction.md5());
    Map<String, byte[]> hashes = new LinkedHashMap<>();
    for (int id = 1; id <= ROWS; id++) {
      String key = key(id);
      if (compared.test(id) && KeyPartitioner.partition(key, PARTITIONS) == partition) {
        hashes.put(key, HexFormat.of().parseHex(hasher.hash(row(id)).hex()));
      }
    }
    return hashes;
  }

  private static void update(Connection connection, TableRef table, String key, String note)
      throws SQLException {
    List<String> parts = CODEC.decodeTexts(key);
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE " + table.table() + " SET note = ? WHERE id = ? AND code = ?")) {
      update.setString(1, note);
      update.setInt(2, Integer.parseInt(parts.get(0)));
      update.setString(3, parts.get(1));
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
  }

  private static void delete(Connection connection, TableRef table, String key)
      throws SQLException {
    List<String> parts = CODEC.decodeTexts(key);
    try (PreparedStatement delete =
        connection.prepareStatement(
            "DELETE FROM " + table.table() + " WHERE id = ? AND code = ?")) {
      delete.setInt(1, Integer.parseInt(parts.get(0)));
      delete.setString(2, parts.get(1));
      assertThat(delete.executeUpdate()).isEqualTo(1);
    }
  }

  /**
   * Inserts a row with id {@code id} and a new code that puts its key in {@code partition}; returns
   * its key.
   */
  private static String insert(Connection connection, TableRef table, int id, int partition)
      throws SQLException {
    String code = CODEC.decodeTexts(keyIn(id, partition)).get(1);
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + table.table() + " VALUES (?, ?, ?, ?, ?)")) {
      Object[] row = row(id);
      row[1] = code;
      for (int i = 0; i < row.length; i++) {
        insert.setObject(i + 1, row[i]);
      }
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }
    return CODEC.encode(List.of(id, code));
  }

  /** The key of id {@code id} with the first new code that puts it in {@code partition}. */
  private static String keyIn(int id, int partition) {
    for (int n = 0; ; n++) {
      String key = CODEC.encode(List.of(id, "x" + n));
      if (KeyPartitioner.partition(key, PARTITIONS) == partition) {
        return key;
      }
    }
  }
}
