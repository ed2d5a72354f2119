package io.cdccompare.systemtests.soak;

import io.cdccompare.embedded.JdbcServer;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The soak's two tables, on the source and on every target: {@code soak_comp} with a composite key
 * (text, int) and {@code soak_text} with a text key. Keys whose number is {@value #FROZEN_MOD}k+7
 * are frozen: written once, never touched by the load, so a difference injected on one of them
 * stays until the end. Extra rows are injected under keys the source never has ({@code x-…}).
 */
final class SoakTables {
  static final String COMP = "soak_comp";
  static final String TEXT = "soak_text";
  static final int FROZEN_MOD = 25;
  static final int REGIONS = 8;

  private final int rowsPerTable;

  SoakTables(int rowsPerTable) {
    this.rowsPerTable = rowsPerTable;
  }

  static String[] ddl() {
    return new String[] {
      "CREATE TABLE "
          + COMP
          + " (region varchar(20) NOT NULL, id int NOT NULL,"
          + " name varchar(60) NOT NULL, n bigint NOT NULL, PRIMARY KEY (region, id))",
      "CREATE TABLE "
          + TEXT
          + " (k varchar(40) NOT NULL PRIMARY KEY, v varchar(200),"
          + " amount decimal(12,2))"
    };
  }

  static void create(JdbcServer server, String db) throws SQLException {
    try (Connection c = server.connect(db);
        Statement s = c.createStatement()) {
      for (String ddl : ddl()) {
        s.execute(ddl);
      }
    }
  }

  static boolean frozen(int number) {
    return number % FROZEN_MOD == 7;
  }

  static String textKey(int i) {
    return String.format("k-%06d", i);
  }

  /** The initial rows on the source, in a few transactions. */
  void load(Connection c) throws SQLException {
    c.setAutoCommit(false);
    int perRegion = rowsPerTable / REGIONS;
    try (PreparedStatement comp =
            c.prepareStatement("INSERT INTO " + COMP + " VALUES (?, ?, ?, ?)");
        PreparedStatement text = c.prepareStatement("INSERT INTO " + TEXT + " VALUES (?, ?, ?)")) {
      for (int r = 0; r < REGIONS; r++) {
        for (int id = 0; id < perRegion; id++) {
          comp.setString(1, "r" + r);
          comp.setInt(2, id);
          comp.setString(3, "name " + id);
          comp.setLong(4, id);
          comp.addBatch();
        }
        comp.executeBatch();
        c.commit();
      }
      for (int i = 0; i < rowsPerTable; i++) {
        text.setString(1, textKey(i));
        text.setString(2, "value " + i);
        text.setBigDecimal(3, BigDecimal.valueOf(i, 2));
        text.addBatch();
        if (i % 1000 == 999) {
          text.executeBatch();
          c.commit();
        }
      }
      text.executeBatch();
      c.commit();
    }
  }

  /** One small transaction of live changes on non-frozen keys: upserts, updates and deletes. */
  void change(Connection c, Random random) throws SQLException {
    c.setAutoCommit(false);
    int perRegion = rowsPerTable / REGIONS;
    try (Statement s = c.createStatement()) {
      for (int op = 0; op < 4; op++) {
        int kind = random.nextInt(10);
        if (random.nextBoolean()) {
          String region = "r" + random.nextInt(REGIONS);
          int id = live(random, perRegion * 2);
          if (kind < 7) {
            s.execute(
                "INSERT INTO "
                    + COMP
                    + " VALUES ('"
                    + region
                    + "', "
                    + id
                    + ", 'live "
                    + random.nextInt(1000)
                    + "', 1) ON CONFLICT (region, id) DO UPDATE SET"
                    + " name = EXCLUDED.name, n = "
                    + COMP
                    + ".n + 1");
          } else {
            s.execute("DELETE FROM " + COMP + " WHERE region = '" + region + "' AND id = " + id);
          }
        } else {
          String key = textKey(live(random, rowsPerTable * 2));
          if (kind < 7) {
            s.execute(
                "INSERT INTO "
                    + TEXT
                    + " VALUES ('"
                    + key
                    + "', 'live "
                    + random.nextInt(1000)
                    + "', "
                    + random.nextInt(100000)
                    + ".25) ON CONFLICT (k) DO UPDATE SET"
                    + " v = EXCLUDED.v, amount = EXCLUDED.amount");
          } else {
            s.execute("DELETE FROM " + TEXT + " WHERE k = '" + key + "'");
          }
        }
      }
    }
    c.commit();
  }

  private static int live(Random random, int bound) {
    int n;
    do {
      n = random.nextInt(bound);
    } while (frozen(n));
    return n;
  }

  /**
   * A frozen key of the initial rows, as the compare encodes it ({@code region,id} or the text).
   * Numbers are handed out in order, so no key is injected twice.
   */
  String frozenKey(String table, int nth) {
    int perRegion = rowsPerTable / REGIONS;
    if (table.equals(COMP)) {
      int slot = nth * 3 + 1; // spread over regions and ids
      int region = slot % REGIONS;
      int id = (slot / REGIONS) * FROZEN_MOD + 7;
      if (id >= perRegion) {
        throw new IllegalStateException("not enough frozen rows for " + nth + " injections");
      }
      return "r" + region + "," + id;
    }
    int i = nth * FROZEN_MOD * 3 + 7;
    if (i >= rowsPerTable) {
      throw new IllegalStateException("not enough frozen rows for " + nth + " injections");
    }
    return textKey(i);
  }

  /** Makes a difference on a target: the row of {@code key} changed, deleted or added. */
  static void inject(Connection c, String table, String kind, String key) throws SQLException {
    try (Statement s = c.createStatement()) {
      String where = where(table, key);
      int changed =
          switch (kind) {
            case "failed" ->
                s.executeUpdate(
                    "UPDATE "
                        + table
                        + (table.equals(COMP) ? " SET name = 'injected'" : " SET v = 'injected'")
                        + where);
            case "missed" -> s.executeUpdate("DELETE FROM " + table + where);
            case "extra" -> s.executeUpdate(insertExtra(table, key));
            default -> throw new IllegalArgumentException(kind);
          };
      if (changed != 1) {
        throw new IllegalStateException(
            "injecting " + kind + " " + table + " " + key + " changed " + changed + " rows");
      }
    }
  }

  private static String insertExtra(String table, String key) {
    if (table.equals(COMP)) {
      String[] parts = key.split(",");
      return "INSERT INTO " + COMP + " VALUES ('" + parts[0] + "', " + parts[1] + ", 'extra', 0)";
    }
    return "INSERT INTO " + TEXT + " VALUES ('" + key + "', 'extra', 0)";
  }

  private static String where(String table, String key) {
    if (table.equals(COMP)) {
      String[] parts = key.split(",");
      return " WHERE region = '" + parts[0] + "' AND id = " + parts[1];
    }
    return " WHERE k = '" + key + "'";
  }

  /** Every row of a table by its encoded key, as comparable text. */
  static Map<String, String> rows(Connection c, String table) throws SQLException {
    Map<String, String> rows = new TreeMap<>();
    String sql =
        table.equals(COMP)
            ? "SELECT region, id, name, n FROM " + COMP
            : "SELECT k, k, v, amount FROM " + TEXT;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        String key = table.equals(COMP) ? rs.getString(1) + "," + rs.getInt(2) : rs.getString(1);
        Object last = rs.getObject(4);
        String lastText =
            last instanceof BigDecimal d
                ? d.stripTrailingZeros().toPlainString()
                : String.valueOf(last);
        rows.put(key, rs.getString(3) + "|" + lastText);
      }
    }
    return rows;
  }
}
