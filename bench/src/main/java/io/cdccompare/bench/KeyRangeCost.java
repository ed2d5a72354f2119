package io.cdccompare.bench;

import io.cdccompare.bench.VerifyCost.TargetKind;
import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.KeysetQueries;
import io.cdccompare.jdbc.sql.TableRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What one chunk's key range read costs a target, for a single and a composite key, written as the
 * verifier writes it ({@link KeysetQueries}: a row-value comparison on PostgreSQL, OR-ed key
 * prefixes on MariaDB) and, for comparison, as a row-value comparison everywhere (what the verifier
 * wrote on MariaDB before). Each target holds {@code narrow (id bigint PRIMARY KEY, v, s)} and
 * {@code pair (a int, b int, v, s, PRIMARY KEY (a, b))} with the same rows ({@code a = id / 1000},
 * {@code b = id % 1000}), so a 10 000-key range of {@code pair} starts and ends inside one value of
 * {@code a}. A range is {@code (k, k + chunk]} at a random place (seeded), every row read and
 * counted; the query plan of one range is printed. A plain main, not JMH.
 *
 * <p>Arguments: {@code [rows] [--chunk=N] [--samples=N]} (defaults 1 000 000, 10 000, 30). Run: see
 * bench/README.md.
 */
public final class KeyRangeCost {
  private KeyRangeCost() {}

  /** One way of writing the range read of one table. */
  private record Form(
      String table, String label, String sql, boolean composite, boolean expanded) {}

  public static void main(String[] args) throws Exception {
    long rows = 1_000_000;
    int chunk = 10_000;
    int samples = 30;
    for (String arg : args) {
      if (arg.startsWith("--chunk=")) {
        chunk = Integer.parseInt(arg.substring("--chunk=".length()));
      } else if (arg.startsWith("--samples=")) {
        samples = Integer.parseInt(arg.substring("--samples=".length()));
      } else {
        rows = Long.parseLong(arg.replace("_", ""));
      }
    }
    List<String> lines = new ArrayList<>();
    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(EnumSet.of(Component.TARGET_POSTGRES, Component.MARIADB))) {
      for (TargetKind kind : TargetKind.values()) {
        JdbcServer server = kind.server(env);
        String db = server.createDatabase("key_range_cost");
        try (Connection c = server.connect(db)) {
          kind.loadNarrow(c, "narrow", rows);
          loadPair(c, kind);
          Dialect dialect = kind.dialect();
          for (Form form : forms(dialect)) {
            Random random = new Random(20_261_201L);
            double[] millis = new double[samples];
            for (int i = -5; i < samples; i++) {
              long first = 1 + (long) (random.nextDouble() * (rows - chunk - 1));
              long start = System.nanoTime();
              long read = read(c, form, first, chunk);
              if (read != chunk) {
                throw new IllegalStateException(form.label() + " read " + read + " rows");
              }
              if (i >= 0) {
                millis[i] = (System.nanoTime() - start) / 1e6;
              }
            }
            lines.add(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.1f | %.1f |",
                    kind.label(),
                    form.table(),
                    form.label(),
                    VerifyCost.percentile(millis, 50),
                    VerifyCost.percentile(millis, 90)));
            System.out.printf(
                Locale.ROOT,
                "%n%s, %s, %s:%n%s%n",
                kind.label(),
                form.table(),
                form.label(),
                plan(c, kind, form, rows / 2, chunk));
          }
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%nKeyRangeCost: %,d rows, ranges of %,d keys at random places, %d measured reads after 5"
            + " warm-up%n%n| target | table | range written as | p50 ms | p90 ms |%n"
            + "|---|---|---|---|---|%n",
        rows,
        chunk,
        samples);
    lines.forEach(System.out::println);
  }

  private static List<Form> forms(Dialect dialect) {
    List<String> select = List.of("*");
    List<Form> forms = new ArrayList<>();
    ComparedRange range = ComparedRange.after("lower", "upper");
    forms.add(
        new Form(
            "narrow",
            "as the verifier does",
            new KeysetQueries(dialect, TableRef.of("narrow"), List.of("id"), List.of("?"))
                .range(select, range),
            false,
            false));
    KeysetQueries pair =
        new KeysetQueries(dialect, TableRef.of("pair"), List.of("a", "b"), List.of("?", "?"));
    forms.add(
        new Form(
            "pair",
            dialect.rangesByRowValue()
                ? "as the verifier does (row value)"
                : "as the verifier does (key prefixes)",
            pair.range(select, range),
            true,
            !dialect.rangesByRowValue()));
    if (!dialect.rangesByRowValue()) {
      String a = dialect.quote("a");
      String b = dialect.quote("b");
      forms.add(
          new Form(
              "pair",
              "row value (before)",
              "SELECT * FROM "
                  + dialect.quote("pair")
                  + " WHERE ("
                  + a
                  + ", "
                  + b
                  + ") > (?, ?) AND ("
                  + a
                  + ", "
                  + b
                  + ") <= (?, ?) ORDER BY "
                  + a
                  + ", "
                  + b,
              true,
              false));
    }
    return forms;
  }

  /** Reads the rows of {@code (first - 1, first - 1 + chunk]}; returns how many. */
  private static long read(Connection c, Form form, long first, int chunk) throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement s = c.prepareStatement(form.sql())) {
      s.setFetchSize(10_000);
      bind(s, form, first - 1, first - 1 + chunk);
      long n = 0;
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          n++;
        }
      }
      return n;
    } finally {
      c.commit();
      c.setAutoCommit(true);
    }
  }

  private static void bind(PreparedStatement s, Form form, long lower, long upper)
      throws SQLException {
    int i = 1;
    for (long bound : new long[] {lower, upper}) {
      if (!form.composite()) {
        s.setLong(i++, bound);
      } else if (form.expanded()) {
        s.setLong(i++, bound / 1000);
        s.setLong(i++, bound / 1000);
        s.setLong(i++, bound % 1000);
      } else {
        s.setLong(i++, bound / 1000);
        s.setLong(i++, bound % 1000);
      }
    }
  }

  /** The plan of one range read, the bounds written in. */
  private static String plan(Connection c, TargetKind kind, Form form, long first, int chunk)
      throws SQLException {
    String sql = form.sql();
    List<Long> values = new ArrayList<>();
    for (long bound : new long[] {first - 1, first - 1 + chunk}) {
      if (!form.composite()) {
        values.add(bound);
      } else if (form.expanded()) {
        values.addAll(List.of(bound / 1000, bound / 1000, bound % 1000));
      } else {
        values.addAll(List.of(bound / 1000, bound % 1000));
      }
    }
    for (long v : values) {
      sql = sql.replaceFirst("\\?", Long.toString(v));
    }
    String explain =
        kind == TargetKind.POSTGRES ? "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " : "ANALYZE ";
    StringBuilder out = new StringBuilder();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(explain + sql)) {
      int columns = rs.getMetaData().getColumnCount();
      if (kind != TargetKind.POSTGRES) {
        for (int i = 1; i <= columns; i++) {
          out.append(i == 1 ? "" : " | ").append(rs.getMetaData().getColumnLabel(i));
        }
        out.append('\n');
      }
      while (rs.next()) {
        for (int i = 1; i <= columns; i++) {
          out.append(i == 1 ? "" : " | ").append(rs.getString(i));
        }
        out.append('\n');
      }
    }
    return out.toString().strip();
  }

  private static void loadPair(Connection c, TargetKind kind) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (kind == TargetKind.POSTGRES) {
        s.execute(
            "CREATE TABLE pair AS SELECT (id / 1000)::int AS a, (id % 1000)::int AS b, v, s"
                + " FROM narrow ORDER BY id");
        s.execute("ALTER TABLE pair ADD PRIMARY KEY (a, b)");
        s.execute("VACUUM (FREEZE, ANALYZE) pair");
      } else {
        s.execute(
            "CREATE TABLE pair (a INT NOT NULL, b INT NOT NULL, v INT NOT NULL, s TEXT NOT NULL,"
                + " PRIMARY KEY (a, b)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
        s.execute("INSERT INTO pair SELECT id DIV 1000, id MOD 1000, v, s FROM narrow ORDER BY id");
        s.execute("ANALYZE TABLE pair");
      }
    }
  }
}
