package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cdccompare.capture.CaptureFixture;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.RowCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A source table {@code items} replicated to a PostgreSQL target {@code pg} and a MariaDB target
 * {@code maria} by a real capture and verifiers, with the targets file and a compare task over it,
 * for the command tests that need the whole pipeline.
 */
record ComparePipeline(
    CaptureFixture source,
    JdbcServer pgServer,
    String pgDb,
    JdbcServer mariaServer,
    String mariaDb,
    Path targetsFile,
    Path taskFile) {
  static final String TABLE_DDL =
      "CREATE TABLE items (id int PRIMARY KEY, name varchar(100) NOT NULL, n int NOT NULL)";
  static final int ROWS = 2_000;

  static ComparePipeline create(
      EmbeddedEnvironment env, Path dir, String taskName, Map<String, String> taskSettings)
      throws Exception {
    return create(env, dir, taskName, taskSettings, List.of("pg", "maria"), Map.of());
  }

  /**
   * @param targetNames the targets, {@code pg} and/or {@code maria} (a target left out gets no
   *     database: its server and database are null)
   * @param targetsSettings keys added to the targets file
   */
  static ComparePipeline create(
      EmbeddedEnvironment env,
      Path dir,
      String taskName,
      Map<String, String> taskSettings,
      List<String> targetNames,
      Map<String, String> targetsSettings)
      throws Exception {
    CaptureFixture f = new CaptureFixture(env);
    f.sql(TABLE_DDL);
    Map<String, String> targets = new LinkedHashMap<>(f.captureConfig("public.items"));
    targets.keySet().removeIf(k -> k.startsWith("source.") || k.startsWith("topic.partitions"));
    targets.remove("poll.interval.ms");
    targets.remove("heartbeat.interval.ms");
    targets.put("state.dir", dir.resolve("streams").toString());
    JdbcServer pgServer = null;
    String pgDb = null;
    if (targetNames.contains("pg")) {
      pgServer = env.targetPostgres();
      pgDb = pgServer.createDatabase("rc_pg_" + f.prefix);
      sql(pgServer, pgDb, TABLE_DDL);
      section(targets, "pg", pgServer, pgDb);
    }
    JdbcServer mariaServer = null;
    String mariaDb = null;
    if (targetNames.contains("maria")) {
      mariaServer = env.mariadb();
      mariaDb = mariaServer.createDatabase("rc_ma_" + f.prefix);
      sql(mariaServer, mariaDb, TABLE_DDL);
      section(targets, "maria", mariaServer, mariaDb);
      targets.put("target.maria.table.public.items", mariaDb + ".items");
    }
    targets.putAll(targetsSettings);
    Path targetsFile = write(dir.resolve("targets.properties"), targets);
    Map<String, String> task = new LinkedHashMap<>(f.task(taskName, "public.items"));
    task.put("deep", "100");
    task.put(CompareConfig.TARGETS, String.join(",", targetNames));
    task.putAll(taskSettings);
    Path taskFile = write(dir.resolve("task.properties"), task);
    return new ComparePipeline(f, pgServer, pgDb, mariaServer, mariaDb, targetsFile, taskFile);
  }

  /** A running verifier of one target; the report aggregation runs beside the first. */
  RunningVerifier verifier(String target, boolean aggregateReport) throws Exception {
    RunningVerifier verifier =
        RunningVerifier.start(TargetsConfig.load(targetsFile), target, aggregateReport);
    verifier.awaitRunning(Duration.ofSeconds(90));
    return verifier;
  }

  static void section(
      Map<String, String> targets, String name, JdbcServer server, String database) {
    targets.put("target." + name + ".url", server.jdbcUrl(database));
    targets.put("target." + name + ".user", server.user());
    targets.put("target." + name + ".password", server.password());
  }

  static Path write(Path file, Map<String, String> values) throws Exception {
    Properties p = new Properties();
    p.putAll(values);
    try (var w = Files.newBufferedWriter(file)) {
      p.store(w, null);
    }
    return file;
  }

  static void sql(JdbcServer server, String database, String... statements) throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  static void awaitRows(JdbcServer server, String database, long rows) {
    await().atMost(Duration.ofSeconds(120)).until(() -> count(server, database) == rows);
  }

  static long count(JdbcServer server, String database) throws SQLException {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The run the report shows for the task's table (every target's entry shows the same). */
  static String fullRunId(Path taskFile) {
    return fullRunId(taskFile, "recheck");
  }

  static String fullRunId(Path taskFile, String task) {
    List<String> runs =
        TaskReportReader.of(CompareConfig.load(taskFile)).entries().stream()
            .filter(e -> e.getTable() != null && e.getTask().equals(task))
            .map(ReportEntry::getRunId)
            .distinct()
            .toList();
    assertThat(runs).as("the runs the report shows").hasSize(1);
    return runs.get(0);
  }

  static List<ChunkResult> results(Path taskFile, String runId) {
    return TaskReportReader.of(CompareConfig.load(taskFile))
        .results(r -> r.getRunId().equals(runId));
  }

  /** Every row a target's results count, whatever its outcome. */
  static long rowsCounted(List<ChunkResult> results, String target) {
    long rows = 0;
    for (ChunkResult r : results) {
      if (r.getTarget().equals(target)) {
        RowCounts c = r.getCounts();
        rows += c.getMatched() + c.getFailed() + c.getMissed() + c.getExtra() + c.getInFlight();
      }
    }
    return rows;
  }

  /**
   * Each key's row as it is now on the source and on every target, for an assertion's message: rows
   * still different tell a lost apply, rows equal a false verdict.
   */
  String rowsNow(java.util.Collection<String> keys) {
    StringBuilder rows = new StringBuilder();
    for (String key : keys) {
      String query = "SELECT id, name, n FROM items WHERE id = " + Long.parseLong(key);
      rows.append(key).append(": source ");
      try {
        rows.append(source.rows(query).stream().map(java.util.Arrays::toString).toList());
      } catch (Exception e) {
        rows.append("not read (").append(e.getMessage()).append(')');
      }
      rows.append(", pg ").append(row(pgServer, pgDb, query));
      if (mariaServer != null) {
        rows.append(", maria ").append(row(mariaServer, mariaDb, query));
      }
      rows.append("; ");
    }
    return rows.toString();
  }

  private static String row(JdbcServer server, String database, String query) {
    try (Connection c = server.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      return rs.next()
          ? "[" + rs.getString(1) + ", " + rs.getString(2) + ", " + rs.getString(3) + "]"
          : "none";
    } catch (SQLException e) {
      return "not read (" + e.getMessage() + ")";
    }
  }
}
