package io.cdccompare.bench;

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
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.MariaDbDialect;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.verify.ChunkCheck;
import io.cdccompare.verifier.verify.ChunkVerifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Cost of verifying one chunk on a target (docs/design.md, "Verifying a chunk on a target"; issue
 * goal: p50 ≤ 30 ms for a 10 000-key chunk on a 1 M-row target): {@link ChunkVerifier#verify}
 * called directly, as the verifier does at a CLOSE marker, on the embedded target PostgreSQL and
 * MariaDB. A plain main, not JMH.
 *
 * <p>Each target holds {@code narrow (id bigint PRIMARY KEY, v int, s text)} with {@code rows}
 * rows. A chunk is {@code chunk} consecutive keys starting at a random row (seeded), so chunks are
 * spread over the whole table. It is verified with partition count 1 (one verifier sees every key
 * of the chunk) and with partition count 3 (the realistic case: the verifier of one partition gets
 * the ~1/3 of the chunk's keys that hash to it, and its range read still walks every row of the
 * range). The source hashes are computed from the rows' values in Java, outside the timing; every
 * verdict must match every key, or the run stops. Only {@code verify} is timed, after unmeasured
 * warm-up verifies.
 *
 * <p>Arguments: {@code [rows] [--chunk=N] [--samples=N] [--warmup=N] [--fetch=N]} (defaults 1 000
 * 000 rows, 10 000, 200, 50, 10 000). Run: see bench/README.md.
 */
public final class VerifyCost {
  private static final KeyCodec CODEC = new KeyCodec(List.of(LogicalType.BIGINT));
  private static final HashPlan PLAN =
      new HashPlan(
          "narrow",
          List.of(
              HashedColumn.of("id", LogicalType.BIGINT),
              HashedColumn.of("v", LogicalType.INTEGER),
              HashedColumn.of("s", LogicalType.TEXT)));
  private static final RowHasher HASHER =
      new RowHasher(PLAN.columns(), CanonicalFormat.COMPATIBLE, HashFunction.md5());

  private VerifyCost() {}

  private record Row(String target, int partitions, int keysPerCheck, double[] millis) {}

  public static void main(String[] args) throws Exception {
    long rows = 1_000_000;
    int chunk = 10_000;
    int samples = 200;
    int warmUp = 50;
    int fetch = 10_000;
    for (String arg : args) {
      if (arg.startsWith("--chunk=")) {
        chunk = Integer.parseInt(arg.substring("--chunk=".length()));
      } else if (arg.startsWith("--samples=")) {
        samples = Integer.parseInt(arg.substring("--samples=".length()));
      } else if (arg.startsWith("--warmup=")) {
        warmUp = Integer.parseInt(arg.substring("--warmup=".length()));
      } else if (arg.startsWith("--fetch=")) {
        fetch = Integer.parseInt(arg.substring("--fetch=".length()));
      } else {
        rows = Long.parseLong(arg.replace("_", ""));
      }
    }
    List<Row> table = new ArrayList<>();
    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(EnumSet.of(Component.TARGET_POSTGRES, Component.MARIADB))) {
      for (TargetKind kind : TargetKind.values()) {
        JdbcServer server = kind.server(env);
        String db = server.createDatabase("verify_cost");
        try (Connection c = server.connect(db)) {
          long start = System.nanoTime();
          kind.loadNarrow(c, "narrow", rows);
          System.err.printf(
              Locale.ROOT,
              "%s: loaded %d rows in %.1f s%n",
              kind.label(),
              rows,
              (System.nanoTime() - start) / 1e9);
          ChunkVerifier verifier =
              ChunkVerifier.open(
                  c, kind.dialect(), CanonicalFormat.COMPATIBLE, HashFunction.md5(), fetch);
          for (int partitions : new int[] {1, 3}) {
            Random random = new Random(20_240_531L + partitions);
            for (int i = 0; i < warmUp; i++) {
              time(verifier, randomChunk(random, rows, chunk), chunk, partitions, i % partitions);
            }
            double[] millis = new double[samples];
            long keys = 0;
            for (int i = 0; i < samples; i++) {
              Sample s =
                  time(
                      verifier,
                      randomChunk(random, rows, chunk),
                      chunk,
                      partitions,
                      i % partitions);
              millis[i] = s.nanos / 1e6;
              keys += s.keys;
            }
            table.add(new Row(kind.label(), partitions, (int) (keys / samples), millis));
            System.err.printf(
                Locale.ROOT,
                "%s, partition count %d: p50 %.1f ms%n",
                kind.label(),
                partitions,
                percentile(millis, 50));
          }
        }
      }
    }
    report(rows, chunk, samples, warmUp, fetch, table);
  }

  private record Sample(long nanos, int keys) {}

  /** Verifies one chunk's share of one partition; checks that every key matched. */
  private static Sample time(
      ChunkVerifier verifier, long firstId, int chunk, int partitions, int partition)
      throws SQLException {
    Map<String, byte[]> hashes = sourceHashes(firstId, chunk, partitions, partition);
    ChunkCheck check = check(hashes, firstId, chunk, partitions, partition);
    long start = System.nanoTime();
    ChunkVerdict verdict = verifier.verify(check);
    long nanos = System.nanoTime() - start;
    requireAllMatched(verdict, hashes.size(), "chunk at id " + firstId);
    return new Sample(nanos, hashes.size());
  }

  private static long randomChunk(Random random, long rows, int chunk) {
    return 1 + (long) (random.nextDouble() * (rows - chunk + 1));
  }

  /** The source's hashes of rows [firstId, firstId + chunk) that hash to the partition. */
  static Map<String, byte[]> sourceHashes(long firstId, int chunk, int partitions, int partition) {
    Map<String, byte[]> hashes = new LinkedHashMap<>();
    HexFormat hex = HexFormat.of();
    for (long id = firstId; id < firstId + chunk; id++) {
      String key = CODEC.encode(List.of(id));
      if (partitions == 1 || KeyPartitioner.partition(key, partitions) == partition) {
        hashes.put(key, hex.parseHex(HASHER.hash(id, TargetKind.v(id), TargetKind.s(id)).hex()));
      }
    }
    return hashes;
  }

  static double percentile(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static void report(
      long rows, int chunk, int samples, int warmUp, int fetch, List<Row> table) {
    System.out.printf(
        Locale.ROOT,
        "%nVerifyCost: %,d-row target, chunks of %,d consecutive keys at random places, %d"
            + " measured verifies after %d warm-up, fetch size %,d%n%n",
        rows,
        chunk,
        samples,
        warmUp,
        fetch);
    System.out.println(
        "| target | partition count | keys per verify | p50 ms | p90 ms | p99 ms | max ms | mean ms |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (Row r : table) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %d | %,d | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
          r.target(),
          r.partitions(),
          r.keysPerCheck(),
          percentile(r.millis(), 50),
          percentile(r.millis(), 90),
          percentile(r.millis(), 99),
          Arrays.stream(r.millis()).max().orElse(0),
          Arrays.stream(r.millis()).average().orElse(0));
    }
  }

  static ChunkCheck check(
      Map<String, byte[]> hashes, long firstId, int chunk, int partitions, int partition) {
    return new ChunkCheck(
        TableRef.of("narrow"),
        PLAN,
        List.of("id"),
        CODEC,
        hashes,
        partition,
        partitions,
        ComparedRange.between(
            CODEC.encode(List.of(firstId)), CODEC.encode(List.of(firstId + chunk - 1))),
        Set.of());
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static ChunkVerdict requireAllMatched(ChunkVerdict verdict, int keys, String what) {
    if (verdict.matched() != keys || verdict.hasDifferences() || verdict.inFlight() != 0) {
      throw new IllegalStateException(what + ": expected " + keys + " matched, got " + verdict);
    }
    return verdict;
  }

  /** The two embedded targets, and how to fill the narrow table on each. */
  enum TargetKind {
    POSTGRES("PostgreSQL 17") {
      @Override
      JdbcServer server(EmbeddedEnvironment env) {
        return env.targetPostgres();
      }

      @Override
      Dialect dialect() {
        return new PostgresDialect();
      }

      @Override
      void loadNarrow(Connection c, String table, long rows) throws SQLException {
        execute(
            c, "CREATE TABLE " + table + " (id bigint NOT NULL, v int NOT NULL, s text NOT NULL)");
        execute(
            c,
            "INSERT INTO "
                + table
                + " SELECT g, ((g * 7919) % 100000)::int, 's' || (g % 9973)"
                + " FROM generate_series(1::bigint, "
                + rows
                + ") g");
        execute(c, "ALTER TABLE " + table + " ADD PRIMARY KEY (id)");
        execute(c, "VACUUM (FREEZE, ANALYZE) " + table);
      }

      @Override
      String createBookkeeping(JdbcServer server, Connection c, String name) throws SQLException {
        execute(c, "CREATE SCHEMA " + name);
        return name;
      }
    },
    MARIADB("MariaDB 11.4") {
      @Override
      JdbcServer server(EmbeddedEnvironment env) {
        return env.mariadb();
      }

      @Override
      Dialect dialect() {
        return new MariaDbDialect();
      }

      @Override
      void loadNarrow(Connection c, String table, long rows) throws SQLException {
        execute(
            c,
            "CREATE TABLE "
                + table
                + " (id BIGINT NOT NULL PRIMARY KEY, v INT NOT NULL, s TEXT NOT NULL)"
                + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
        execute(c, "CREATE TABLE IF NOT EXISTS bench_digits (d INT NOT NULL PRIMARY KEY)");
        execute(
            c, "INSERT IGNORE INTO bench_digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
        // 10^levels numbers from a cross join of digits, inserted in key order
        StringBuilder number = new StringBuilder("1");
        StringBuilder from = new StringBuilder();
        long scale = 1;
        for (int level = 0; scale < rows; level++, scale *= 10) {
          number.append(" + ").append(scale).append(" * d").append(level).append(".d");
          from.append(level == 0 ? "" : ", ").append("bench_digits d").append(level);
        }
        execute(
            c,
            "INSERT INTO "
                + table
                + " SELECT n, (n * 7919) % 100000, CONCAT('s', n % 9973) FROM (SELECT "
                + number
                + " AS n FROM "
                + from
                + ") g WHERE n <= "
                + rows
                + " ORDER BY n");
        execute(c, "ANALYZE TABLE " + table);
      }

      @Override
      String createBookkeeping(JdbcServer server, Connection c, String name) {
        return server.createDatabase(name);
      }
    };

    private final String label;

    TargetKind(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }

    abstract JdbcServer server(EmbeddedEnvironment env);

    abstract Dialect dialect();

    /** Creates {@code table (id bigint PRIMARY KEY, v int, s text)} holding ids 1..rows. */
    abstract void loadNarrow(Connection c, String table, long rows) throws SQLException;

    /** A schema (PostgreSQL) or database (MariaDB) for the applier's bookkeeping tables. */
    abstract String createBookkeeping(JdbcServer server, Connection c, String name)
        throws SQLException;

    static int v(long id) {
      return (int) ((id * 7919) % 100_000);
    }

    static String s(long id) {
      return "s" + (id % 9973);
    }
  }
}
