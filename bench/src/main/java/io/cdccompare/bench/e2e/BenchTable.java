package io.cdccompare.bench.e2e;

/**
 * The two narrow table shapes the end-to-end benchmark streams and compares, as DDL for the source
 * (PostgreSQL) and each target kind, and the bulk load of the source: one {@code INSERT … SELECT
 * generate_series} statement, one transaction, so the initial copy is N inserts applied from the
 * stream.
 */
public enum BenchTable {
  /** A single-column key: {@code narrow (id bigint PRIMARY KEY, v int, s text)}, ids 1..N. */
  NARROW("narrow") {
    @Override
    String postgresColumns() {
      return "id bigint PRIMARY KEY, v int, s text";
    }

    @Override
    String mariadbColumns() {
      return "id BIGINT NOT NULL PRIMARY KEY, v INT, s TEXT";
    }

    @Override
    String loadSelect(long rows) {
      return "SELECT g, (g * 7919 % 100000)::int, 's' || (g % 10000000)"
          + " FROM generate_series(1::bigint, "
          + rows
          + ") g";
    }

    @Override
    String mariadbLoadSelect(long rows) {
      return "SELECT seq, seq * 7919 % 100000, CONCAT('s', seq % 10000000) FROM seq_1_to_" + rows;
    }
  },

  /**
   * A composite key: {@code pair (a int, b int, v int, s text, PRIMARY KEY (a, b))} with {@code a =
   * g / 997}, {@code b = g % 997} for g in 1..N: 997 rows per value of {@code a}, so a chunk
   * boundary (every 10 000 rows by default) nearly always falls inside one value of {@code a} and
   * the keyset comparison {@code (a, b) > (?, ?)} of both sides is exercised at every chunk.
   */
  PAIR("pair") {
    @Override
    String postgresColumns() {
      return "a int, b int, v int, s text, PRIMARY KEY (a, b)";
    }

    @Override
    String mariadbColumns() {
      return "a INT NOT NULL, b INT NOT NULL, v INT, s TEXT, PRIMARY KEY (a, b)";
    }

    @Override
    String loadSelect(long rows) {
      return "SELECT (g / 997)::int, (g % 997)::int, (g * 7919 % 100000)::int,"
          + " 's' || (g % 10000000) FROM generate_series(1::bigint, "
          + rows
          + ") g";
    }

    @Override
    String mariadbLoadSelect(long rows) {
      return "SELECT seq DIV 997, seq % 997, seq * 7919 % 100000, CONCAT('s', seq % 10000000)"
          + " FROM seq_1_to_"
          + rows;
    }
  },

  /**
   * The unmeasured warm-up: {@link #NARROW}'s shape under another name, copied and compared once
   * before the measured tables so that neither pays the JIT, connection and metadata costs of the
   * first chunks alone.
   */
  WARMUP("warmup") {
    @Override
    String postgresColumns() {
      return NARROW.postgresColumns();
    }

    @Override
    String mariadbColumns() {
      return NARROW.mariadbColumns();
    }

    @Override
    String loadSelect(long rows) {
      return NARROW.loadSelect(rows);
    }

    @Override
    String mariadbLoadSelect(long rows) {
      return NARROW.mariadbLoadSelect(rows);
    }
  };

  private final String baseName;

  BenchTable(String baseName) {
    this.baseName = baseName;
  }

  /** The table's name with the run's table prefix ({@code ""} on the embedded environment). */
  public String name(String tablePrefix) {
    return tablePrefix + baseName;
  }

  /** The option value that selects it ({@code --table=narrow}). */
  public String option() {
    return baseName;
  }

  /** {@code CREATE TABLE} on the source or on a target of this kind. */
  String create(TargetKind kind, String qualifiedName) {
    return switch (kind) {
      case POSTGRES -> "CREATE TABLE " + qualifiedName + " (" + postgresColumns() + ")";
      case MARIADB ->
          "CREATE TABLE "
              + qualifiedName
              + " ("
              + mariadbColumns()
              + ") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    };
  }

  /**
   * The bulk load of {@code rows} rows, {@code INSERT INTO table SELECT …}, on the source or, for
   * {@code --preload}, on a target of this kind: the same rows on both (MariaDB numbers them with
   * its sequence engine, {@code seq_1_to_N}).
   */
  String load(TargetKind kind, String qualifiedName, long rows) {
    return "INSERT INTO "
        + qualifiedName
        + " "
        + switch (kind) {
          case POSTGRES -> loadSelect(rows);
          case MARIADB -> mariadbLoadSelect(rows);
        };
  }

  abstract String postgresColumns();

  abstract String mariadbColumns();

  abstract String loadSelect(long rows);

  abstract String mariadbLoadSelect(long rows);
}
