package io.cdccompare.verifier.stream;

import io.cdccompare.core.table.TableName;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A target database holding {@code counters} and its {@code apply_log}; {@code bookkeeping} is the
 * schema or database of the checkpoints and verdicts, {@code null} for the current one.
 */
record CrashTarget(JdbcServer server, String database, TableName table, String bookkeeping) {
  /** The kinds of target the crash is tried on. */
  enum Kind {
    POSTGRES {
      @Override
      CrashTarget create(EmbeddedEnvironment env, String name) throws SQLException {
        JdbcServer server = env.targetPostgres();
        CrashTarget target =
            new CrashTarget(server, server.createDatabase(name), VerifierCrashIT.COUNTERS, null);
        target.sql(
            VerifierCrashIT.TABLE_DDL,
            "CREATE TABLE apply_log (n bigserial PRIMARY KEY, id int NOT NULL, op text)",
            "CREATE FUNCTION log_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_OP = 'DELETE' THEN INSERT INTO apply_log (id, op) VALUES (OLD.id, TG_OP);"
                + " ELSE INSERT INTO apply_log (id, op) VALUES (NEW.id, TG_OP); END IF;"
                + " RETURN NULL; END $$",
            "CREATE TRIGGER counters_log AFTER INSERT OR UPDATE OR DELETE ON counters"
                + " FOR EACH ROW EXECUTE FUNCTION log_apply()");
        return target;
      }
    },
    MARIADB {
      /** The table in a database of its own, the checkpoints and verdicts in another one. */
      @Override
      CrashTarget create(EmbeddedEnvironment env, String name) throws SQLException {
        JdbcServer server = env.mariadb();
        String database = server.createDatabase(name);
        CrashTarget target =
            new CrashTarget(
                server,
                database,
                new TableName(database, "counters"),
                server.createDatabase(name + "_bookkeeping"));
        target.sql(
            "CREATE TABLE counters (id INT PRIMARY KEY, hits INT NOT NULL, note TEXT)"
                + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
            "CREATE TABLE apply_log (n BIGINT AUTO_INCREMENT PRIMARY KEY, id INT NOT NULL,"
                + " op VARCHAR(6) NOT NULL)",
            "CREATE TRIGGER counters_log_insert AFTER INSERT ON counters"
                + " FOR EACH ROW INSERT INTO apply_log (id, op) VALUES (NEW.id, 'INSERT')",
            "CREATE TRIGGER counters_log_update AFTER UPDATE ON counters"
                + " FOR EACH ROW INSERT INTO apply_log (id, op) VALUES (NEW.id, 'UPDATE')",
            "CREATE TRIGGER counters_log_delete AFTER DELETE ON counters"
                + " FOR EACH ROW INSERT INTO apply_log (id, op) VALUES (OLD.id, 'DELETE')");
        return target;
      }
    };

    /** A fresh target database named {@code name} holding an empty, logged {@code counters}. */
    abstract CrashTarget create(EmbeddedEnvironment env, String name) throws SQLException;
  }

  String jdbcUrl() {
    return server.jdbcUrl(database);
  }

  Connection connect() throws SQLException {
    return server.connect(database);
  }

  void sql(String... statements) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  /** The rows the apply wrote, as its trigger logged them. */
  long writes() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM apply_log")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  Map<Integer, Long> checkpoints(String app, String topic) throws SQLException {
    Map<Integer, Long> out = new TreeMap<>();
    try (Connection c = connect()) {
      CheckpointStore store = new CheckpointStore(c, Dialect.forJdbcUrl(jdbcUrl()), bookkeeping);
      for (int p = 0; p < VerifierCrashIT.PARTITIONS; p++) {
        out.put(p, store.find(app, topic, p).map(Checkpoint::offset).orElse(-1L));
      }
    }
    return out;
  }

  /** The stored verdicts of the run, as chunk/partition. */
  List<String> verdicts(String app, String runId) throws SQLException {
    String table = (bookkeeping == null ? "" : bookkeeping + ".") + "cdc_compare_verdicts";
    List<String> out = new ArrayList<>();
    try (Connection c = connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT chunk, table_partition FROM "
                    + table
                    + " WHERE application = ? AND run_id = ? ORDER BY chunk, table_partition")) {
      s.setString(1, app);
      s.setString(2, runId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getLong(1) + "/" + rs.getInt(2));
        }
      }
    }
    return out;
  }
}
