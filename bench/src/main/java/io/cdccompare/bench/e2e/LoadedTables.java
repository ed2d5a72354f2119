package io.cdccompare.bench.e2e;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What happens to a table between its copy and its compare: every target must hold exactly the
 * loaded rows, then the tables are settled, so that the compare is measured on tables as they are
 * after a while in service rather than on the first reads after a bulk load (which set hint bits)
 * with a spread checkpoint running beside it: statistics and visibility maps (VACUUM ANALYZE, or
 * ANALYZE TABLE on MariaDB) and a CHECKPOINT of each PostgreSQL. CHECKPOINT needs a superuser (or
 * pg_checkpoint); on external servers a refusal is printed and ignored.
 */
final class LoadedTables {
  private final Servers servers;
  private final Pipeline pipeline;

  LoadedTables(Servers servers, Pipeline pipeline) {
    this.servers = servers;
    this.pipeline = pipeline;
  }

  /** Loads {@code rows} rows of the table straight into the source and every target (no copy). */
  void preload(BenchTable table, long rows) throws SQLException {
    try (Connection c = servers.source().connect()) {
      TargetKind.execute(c, table.load(TargetKind.POSTGRES, pipeline.sourceSql(table), rows));
    }
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        TargetKind.execute(c, table.load(target.kind(), pipeline.targetSql(target, table), rows));
      }
    }
  }

  /** Throws naming the target that does not hold exactly {@code rows} rows of the table. */
  void requireCounts(BenchTable table, long rows) throws SQLException {
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        long count = TargetKind.count(c, pipeline.targetSql(target, table));
        if (count != rows) {
          throw new IllegalStateException(
              "target " + target.name() + " holds " + count + " rows of " + rows);
        }
      }
    }
  }

  void settle(BenchTable table) throws SQLException {
    try (Connection c = servers.source().connect()) {
      TargetKind.POSTGRES.settle(c, pipeline.sourceSql(table));
      checkpoint(c, "source");
    }
    for (Servers.Target target : servers.targets()) {
      try (Connection c = target.connect()) {
        target.kind().settle(c, pipeline.targetSql(target, table));
        if (target.kind() == TargetKind.POSTGRES) {
          checkpoint(c, "target " + target.name());
        }
      }
    }
  }

  private static void checkpoint(Connection c, String where) {
    try {
      TargetKind.execute(c, "CHECKPOINT");
    } catch (SQLException e) {
      System.err.println(
          "  CHECKPOINT refused on " + where + " (" + e.getMessage() + "); going on");
    }
  }
}
