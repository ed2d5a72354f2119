package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A target database of the end-to-end tests, PostgreSQL or MariaDB, holding the table {@code
 * orders} (composite key {@code region, code}) and any other table {@link #create}d, each mapped
 * from {@code public.<name>} on the source.
 */
final class TargetDb {
  static final TableName ORDERS = new TableName("public", "orders");
  static final int PARTITIONS = 3;

  final String name;
  final JdbcServer server;
  final String database;
  final String table;
  final TableName tableName;
  final String bookkeeping;
  private final boolean mariadb;
  private final Map<TableName, TableName> tables = new LinkedHashMap<>();

  private TargetDb(
      String name,
      JdbcServer server,
      String database,
      TableName tableName,
      String bookkeeping,
      boolean mariadb,
      boolean withOrders) {
    this.name = name;
    this.server = server;
    this.database = database;
    this.tableName = tableName;
    this.table = tableName.schema() + "." + tableName.table();
    this.bookkeeping = bookkeeping;
    this.mariadb = mariadb;
    if (withOrders) {
      tables.put(ORDERS, tableName);
    }
  }

  static TargetDb postgres(EmbeddedEnvironment env, String prefix) throws SQLException {
    return postgres(env, prefix, true);
  }

  /** A PostgreSQL target; {@code withOrders}: with {@code orders}, applied and compared. */
  static TargetDb postgres(EmbeddedEnvironment env, String prefix, boolean withOrders)
      throws SQLException {
    JdbcServer server = env.targetPostgres();
    String database = server.createDatabase("target_" + prefix);
    TargetDb db =
        new TargetDb(
            "pg",
            server,
            database,
            new TableName("public", "orders"),
            "cdc_compare",
            false,
            withOrders);
    db.sql(
        "CREATE SCHEMA cdc_compare",
        "CREATE TABLE orders (region int NOT NULL, code varchar(20) NOT NULL, qty int NOT NULL,"
            + " price numeric(12,2), note text, created timestamp(6), shipped boolean,"
            + " weight double precision, PRIMARY KEY (region, code))");
    return db;
  }

  static TargetDb mariadb(EmbeddedEnvironment env, String prefix) throws SQLException {
    return mariadb(env, prefix, true);
  }

  /** A MariaDB target; {@code withOrders}: with {@code orders}, applied and compared. */
  static TargetDb mariadb(EmbeddedEnvironment env, String prefix, boolean withOrders)
      throws SQLException {
    JdbcServer server = env.mariadb();
    String database = server.createDatabase("target_" + prefix);
    String bookkeeping = server.createDatabase("bookkeeping_" + prefix);
    TargetDb db =
        new TargetDb(
            "maria",
            server,
            database,
            new TableName(database, "orders"),
            bookkeeping,
            true,
            withOrders);
    db.sql(
        "CREATE TABLE orders (region INT NOT NULL, code VARCHAR(20) NOT NULL, qty INT NOT NULL,"
            + " price DECIMAL(12,2), note TEXT, created DATETIME(6), shipped BOOLEAN,"
            + " weight DOUBLE, PRIMARY KEY (region, code))"
            + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
    return db;
  }

  /**
   * Creates table {@code name} with these column definitions (written so both databases take them)
   * and maps {@code public.<name>} of the source to it; returns its qualified name here.
   */
  String create(String name, String columns) throws SQLException {
    sql(
        "CREATE TABLE "
            + name
            + " ("
            + columns
            + ")"
            + (mariadb ? " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : ""));
    TableName target = new TableName(mariadb ? database : "public", name);
    tables.put(new TableName("public", name), target);
    return target.schema() + "." + target.table();
  }

  VerifierSettings settings(
      EmbeddedEnvironment env, String prefix, int batchSize, Duration maxDelay) {
    VerifierSettings.Builder builder =
        VerifierSettings.builder(name)
            .applicationId("verify-" + prefix + "-" + name)
            .bootstrapServers(env.kafka().bootstrapServers())
            .registryUrl(env.registry().confluentApiUrl())
            .topicPrefix(prefix);
    tables.forEach(builder::table);
    return builder
        .target(server.jdbcUrl(database), server.user(), server.password())
        .bookkeepingSchema(bookkeeping)
        .applyBatchSize(batchSize)
        .applyMaxDelay(maxDelay)
        .streamsProperty("commit.interval.ms", "300")
        .build();
  }

  CommitAudit audit(VerifierSettings settings, String topic) {
    return new CommitAudit(
        settings.applicationId(),
        Set.of(topic),
        () -> {
          try {
            return connect();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        },
        server.jdbcUrl(database),
        bookkeeping);
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

  void execute(String sql, Object[] params) throws SQLException {
    try (Connection c = connect();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        s.setObject(i + 1, params[i]);
      }
      assertThat(s.executeUpdate()).as(sql).isEqualTo(1);
    }
  }

  long count() throws SQLException {
    return count(table);
  }

  long count(String qualifiedTable) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + qualifiedTable)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  Map<Integer, Long> checkpoints(String topic) throws SQLException {
    Map<Integer, Long> out = new TreeMap<>();
    try (Connection c = connect()) {
      CheckpointStore store =
          new CheckpointStore(c, Dialect.forJdbcUrl(server.jdbcUrl(database)), bookkeeping);
      for (int p = 0; p < PARTITIONS; p++) {
        out.put(
            p,
            store
                .find("verify-" + topic.substring(0, topic.indexOf('.')) + "-" + name, topic, p)
                .map(Checkpoint::offset)
                .orElse(-1L));
      }
    }
    return out;
  }
}
