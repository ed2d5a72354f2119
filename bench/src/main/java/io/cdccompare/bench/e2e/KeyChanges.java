package io.cdccompare.bench.e2e;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The changes an incremental run compares: K keys of a narrow-shaped table ({@code id, v, s})
 * changed on the source in one transaction — 60 % updates of existing rows ({@code v} and {@code
 * s}), 20 % inserts of new ids above the highest, the rest deletes of existing rows; no key twice —
 * then followed until every target holds them: for the changed keys, the count of rows and the sum
 * of {@code v} on each target equal the source's (an update adds 1 to {@code v}, so a target that
 * has not applied it yet differs). Keys are drawn with a seeded {@link Random}; a key deleted in an
 * earlier round is never drawn again. One caller.
 */
final class KeyChanges {
  private static final long POLL_MS = 20;

  private final Servers servers;
  private final Pipeline pipeline;
  private final BenchTable table;
  private final Random random = new Random(20_240_601L);
  private final Set<Long> deleted = new HashSet<>();
  private long highest;

  /** The changes of one round. */
  record Changed(int updates, int inserts, int deletes, List<Long> keys) {
    int total() {
      return keys.size();
    }
  }

  KeyChanges(Servers servers, Pipeline pipeline, BenchTable table, long rows) {
    this.servers = servers;
    this.pipeline = pipeline;
    this.table = table;
    this.highest = rows;
  }

  /** Commits {@code k} changes on the source; returns the keys changed. */
  Changed commit(int k) throws SQLException {
    int updates = k * 6 / 10;
    int inserts = k * 2 / 10;
    int deletes = k - updates - inserts;
    Set<Long> drawn = new HashSet<>();
    List<Long> updated = new ArrayList<>();
    List<Long> gone = new ArrayList<>();
    while (updated.size() + gone.size() < updates + deletes) {
      long id = 1 + (long) (random.nextDouble() * highest);
      if (deleted.contains(id) || !drawn.add(id)) {
        continue;
      }
      (updated.size() < updates ? updated : gone).add(id);
    }
    String t = pipeline.sourceSql(table);
    try (Connection c = servers.source().connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement update =
              c.prepareStatement("UPDATE " + t + " SET v = v + 1, s = s || 'u' WHERE id = ANY(?)");
          PreparedStatement insert =
              c.prepareStatement(
                  "INSERT INTO "
                      + t
                      + " SELECT g, (g * 7919 % 100000)::int, 'i' || g"
                      + " FROM generate_series(?::bigint, ?::bigint) g");
          PreparedStatement delete =
              c.prepareStatement("DELETE FROM " + t + " WHERE id = ANY(?)")) {
        update.setArray(1, c.createArrayOf("bigint", updated.toArray()));
        require(update.executeUpdate(), updates, "updated");
        insert.setLong(1, highest + 1);
        insert.setLong(2, highest + inserts);
        require(insert.executeUpdate(), inserts, "inserted");
        Array ids = c.createArrayOf("bigint", gone.toArray());
        delete.setArray(1, ids);
        require(delete.executeUpdate(), deletes, "deleted");
      }
      c.commit();
    }
    List<Long> keys = new ArrayList<>(updated);
    for (long id = highest + 1; id <= highest + inserts; id++) {
      keys.add(id);
    }
    keys.addAll(gone);
    highest += inserts;
    deleted.addAll(gone);
    return new Changed(updates, inserts, deletes, keys);
  }

  /** Waits until every target holds the changed keys as the source does; returns the seconds. */
  double awaitApplied(Changed changed, Duration timeout) throws Exception {
    long start = System.nanoTime();
    String in = changed.keys().stream().map(String::valueOf).collect(Collectors.joining(","));
    long[] expected;
    try (Connection c = servers.source().connect()) {
      expected = countAndSum(c, pipeline.sourceSql(table), in);
    }
    Map<String, Connection> connections = new LinkedHashMap<>();
    try {
      for (Servers.Target target : servers.targets()) {
        connections.put(target.name(), target.connect());
      }
      Set<String> waiting = new HashSet<>(connections.keySet());
      while (!waiting.isEmpty()) {
        for (Servers.Target target : servers.targets()) {
          if (waiting.contains(target.name())) {
            long[] now =
                countAndSum(connections.get(target.name()), pipeline.targetSql(target, table), in);
            if (now[0] == expected[0] && now[1] == expected[1]) {
              waiting.remove(target.name());
            }
          }
        }
        if (waiting.isEmpty()) {
          break;
        }
        pipeline.requireHealthy();
        if (System.nanoTime() - start > timeout.toNanos()) {
          throw new IllegalStateException(
              "targets " + waiting + " did not apply the " + changed.total() + " changes in time");
        }
        Thread.sleep(POLL_MS);
      }
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** Rows of the changed keys and the sum of their {@code v}. */
  private static long[] countAndSum(Connection c, String qualifiedTable, String in)
      throws SQLException {
    try (PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*), COALESCE(SUM(v), 0) FROM "
                    + qualifiedTable
                    + " WHERE id IN ("
                    + in
                    + ")");
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2)};
    }
  }

  private static void require(int actual, int expected, String what) {
    if (actual != expected) {
      throw new IllegalStateException(what + " " + actual + " rows, expected " + expected);
    }
  }
}
