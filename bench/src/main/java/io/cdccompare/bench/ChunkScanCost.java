package io.cdccompare.bench;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.PostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.CopyOut;

/**
 * What reading a table chunk by chunk in key order costs the source and the reader, by protocol,
 * with nothing hashed or sent: the compare's chunk query over JDBC (server-prepared, binary, fetch
 * size = chunk, autocommit off) against the same query as {@code COPY (…) TO STDOUT} read row by
 * row through pgjdbc's {@code CopyOut} (the key bound inlined, the narrow rows' text fields split
 * by hand). It prices a COPY-based reader before anyone writes one. A plain main on the embedded
 * PostgreSQL; the CPU per row comes from {@link CpuMeter}.
 *
 * <p>Arguments: {@code [rows] [chunk]} (default 2 000 000 and 10 000). Three rounds of each; the
 * last is printed as the result.
 */
public final class ChunkScanCost {
  private static final int ROUNDS = 3;

  private ChunkScanCost() {}

  /** One protocol's pass over the table. */
  private interface Scan {
    /**
     * Reads the chunk after {@code after}; returns its rows, and puts its last id in {@code last}.
     */
    int chunk(long after, int chunk, long[] last) throws SQLException, IOException;
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 2_000_000;
    int chunk = args.length > 1 ? Integer.parseInt(args[1].replace("_", "")) : 10_000;
    try (EmbeddedEnvironment env =
        EmbeddedEnvironment.start(EnumSet.of(Component.SOURCE_POSTGRES))) {
      PostgresServer pg = env.sourcePostgres();
      String db = pg.createDatabase("scancost");
      try (Connection c = pg.connect(db);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE narrow (id bigint NOT NULL, v int NOT NULL, s text NOT NULL)");
        s.execute(
            "INSERT INTO narrow SELECT g, (g::bigint * 7919 % 100000)::int, 's' || (g % 10000000)"
                + " FROM generate_series(1, "
                + rows
                + ") g");
        s.execute("ALTER TABLE narrow ADD PRIMARY KEY (id)");
        s.execute("VACUUM (FREEZE, ANALYZE) narrow");
        s.execute("CHECKPOINT");
      }
      String jdbc = null;
      String copy = null;
      for (int round = 1; round <= ROUNDS; round++) {
        try (Connection c = connect(pg, db)) {
          c.setAutoCommit(false);
          jdbc = measure("JDBC chunk query", rows, chunk, round, c, jdbc(c));
        }
        try (Connection c = connect(pg, db)) {
          c.setAutoCommit(false);
          copy = measure("COPY chunk query", rows, chunk, round, c, copy(c));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%nchunked key-order scan of %d narrow rows (id bigint, v int, s text), chunk %d, nothing"
              + " hashed; round %d of %d%n%s%n%s%n",
          rows,
          chunk,
          ROUNDS,
          ROUNDS,
          jdbc,
          copy);
    }
  }

  /** Server-prepared statements from the first execution, as the compare's scan connection. */
  private static Connection connect(PostgresServer pg, String db) throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", pg.user());
    props.setProperty("password", pg.password());
    props.setProperty("prepareThreshold", "-1");
    return DriverManager.getConnection(pg.jdbcUrl(db), props);
  }

  private static Scan jdbc(Connection c) {
    return (after, chunk, last) -> {
      long sink = 0;
      int got = 0;
      try (PreparedStatement s =
          c.prepareStatement("SELECT id, v, s FROM narrow WHERE id > ? ORDER BY id LIMIT ?")) {
        s.setLong(1, after);
        s.setInt(2, chunk + 1);
        s.setFetchSize(chunk);
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next() && got < chunk) {
            last[0] = rs.getLong(1);
            sink += rs.getInt(2) + rs.getString(3).length();
            got++;
          }
        }
      }
      c.commit();
      last[1] += sink;
      return got;
    };
  }

  private static Scan copy(Connection c) throws SQLException {
    CopyManager api = c.unwrap(PGConnection.class).getCopyAPI();
    return (after, chunk, last) -> {
      CopyOut out =
          api.copyOut(
              "COPY (SELECT id, v, s FROM narrow WHERE id > "
                  + after // a long: nothing to quote
                  + " ORDER BY id LIMIT "
                  + (chunk + 1)
                  + ") TO STDOUT");
      long sink = 0;
      int got = 0;
      for (byte[] row; (row = out.readFromCopy()) != null; ) {
        if (got == chunk) {
          continue; // the look-ahead row
        }
        int tab1 = indexOf(row, 0);
        int tab2 = indexOf(row, tab1 + 1);
        last[0] = digits(row, 0, tab1);
        sink +=
            digits(row, tab1 + 1, tab2)
                + new String(row, tab2 + 1, row.length - tab2 - 2, StandardCharsets.UTF_8).length();
        got++;
      }
      c.commit();
      last[1] += sink;
      return got;
    };
  }

  private static int indexOf(byte[] row, int from) {
    int i = from;
    while (row[i] != '\t') {
      i++;
    }
    return i;
  }

  private static long digits(byte[] row, int from, int to) {
    long value = 0;
    for (int i = from; i < to; i++) {
      value = value * 10 + (row[i] - '0');
    }
    return value;
  }

  private static String measure(
      String name, int rows, int chunk, int round, Connection c, Scan scan) throws Exception {
    long[] last = new long[2];
    long read = 0;
    CpuMeter meter = CpuMeter.start();
    long start = System.nanoTime();
    for (int got = chunk; got == chunk; ) {
      got = scan.chunk(last[0], chunk, last);
      read += got;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Double> cpu = meter.stop();
    if (read != rows) {
      throw new IllegalStateException(name + " read " + read + " rows of " + rows);
    }
    String line =
        String.format(
            Locale.ROOT,
            "%-17s %10.0f rows/s | PostgreSQL %.3f µs/row | reader JVM %.3f µs/row (checksum %d)",
            name,
            rows / seconds,
            cpu.get(CpuMeter.POSTGRES) * 1e6 / rows,
            cpu.get(CpuMeter.PRODUCER) * 1e6 / rows,
            last[1]);
    System.err.println("round " + round + ": " + line);
    return line;
  }
}
