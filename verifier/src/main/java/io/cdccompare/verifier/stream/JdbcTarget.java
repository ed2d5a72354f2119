package io.cdccompare.verifier.stream;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.TargetCatalog;
import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetApplier;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import io.cdccompare.verifier.verify.ChunkVerifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target over one JDBC connection of its own: a {@link TargetApplier} for the configured tables
 * and, per (format, hash function), a {@link ChunkVerifier}, all on that connection (they are used
 * one after the other by the task's thread). Each target table's key is its primary key on the
 * target, read once at open, with the logical types the dialect gives its columns: the record keys
 * were encoded from the same key on the source.
 */
final class JdbcTarget implements Target {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcTarget.class);
  private static final int VALID_TIMEOUT_SECONDS = 5;

  private final Connection connection;
  private final Dialect dialect;
  private final int fetchSize;
  private final TargetApplier applier;
  private final Map<TableName, TargetTable> tables;
  private final Map<String, ChunkVerifier> verifiers = new HashMap<>();

  private JdbcTarget(
      Connection connection,
      Dialect dialect,
      int fetchSize,
      TargetApplier applier,
      Map<TableName, TargetTable> tables) {
    this.connection = connection;
    this.dialect = dialect;
    this.fetchSize = fetchSize;
    this.applier = applier;
    this.tables = Map.copyOf(tables);
  }

  /**
   * Opens a target per stream task with the settings' connection, tables and bookkeeping, its
   * transient failures retried ({@link RetryingTarget}).
   */
  static Target.Opener opener(VerifierSettings settings) {
    return RetryingTarget.opener(settings, taskId -> open(settings, taskId));
  }

  static JdbcTarget open(VerifierSettings settings, String taskId) throws SQLException {
    Dialect dialect = Dialect.forJdbcUrl(settings.database().jdbcUrl());
    Properties props = new Properties();
    props.put("user", settings.database().user());
    props.put("password", settings.database().password());
    if (dialect.name().equals("postgresql")) {
      props.put("ApplicationName", settings.applicationId() + "-" + taskId);
    }
    Connection connection = DriverManager.getConnection(settings.database().jdbcUrl(), props);
    try {
      TargetSession.limit(connection, dialect, settings.retries().statementTimeout());
      TargetCatalog catalog = new TargetCatalog(connection, dialect);
      Map<TableName, TargetTable> tables = new LinkedHashMap<>();
      for (TableName source : settings.tables().sourceTables()) {
        TableName target = settings.targetTableOf(source);
        TableRef ref = new TableRef(target.schema(), target.table());
        tables.put(source, table(connection, dialect, catalog, ref));
      }
      TargetApplier applier =
          TargetApplier.open(
              connection,
              dialect,
              settings.applicationId(),
              settings.database().bookkeepingSchema(),
              tables.values(),
              Clock.systemUTC());
      LOG.info(
          "application={} task={} target={} opened tables={}",
          settings.applicationId(),
          taskId,
          settings.target(),
          tables.values().stream().map(t -> t.table() + " key " + t.keyColumns()).toList());
      return new JdbcTarget(connection, dialect, settings.verify().fetchSize(), applier, tables);
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException close) {
        e.addSuppressed(close);
      }
      throw e;
    }
  }

  /** A target table with its primary key, refused if it has none. */
  private static TargetTable table(
      Connection connection, Dialect dialect, TargetCatalog catalog, TableRef ref)
      throws SQLException {
    Map<String, ColumnType> columns = catalog.describe(ref);
    List<String> key = primaryKey(connection, dialect, ref);
    if (key.isEmpty()) {
      throw new IllegalArgumentException(
          "target table "
              + name(ref)
              + " on "
              + dialect.name()
              + " has no primary key: changes are applied by key");
    }
    List<LogicalType> types = new ArrayList<>(key.size());
    for (String column : key) {
      types.add(dialect.access(column, columns.get(column)).defaultType());
    }
    return new TargetTable(ref, key, new KeyCodec(types));
  }

  /**
   * The primary key columns in key order. MariaDB names a database as the JDBC catalog, PostgreSQL
   * as the schema.
   */
  private static List<String> primaryKey(Connection connection, Dialect dialect, TableRef ref)
      throws SQLException {
    DatabaseMetaData metaData = connection.getMetaData();
    boolean catalogIsSchema = !dialect.name().equals("postgresql");
    String catalog = catalogIsSchema ? schemaOrCurrent(connection, ref, true) : null;
    String schema = catalogIsSchema ? null : schemaOrCurrent(connection, ref, false);
    Map<Short, String> columns = new TreeMap<>();
    try (ResultSet rows = metaData.getPrimaryKeys(catalog, schema, ref.table())) {
      while (rows.next()) {
        columns.put(rows.getShort("KEY_SEQ"), rows.getString("COLUMN_NAME"));
      }
    }
    return List.copyOf(columns.values());
  }

  private static String schemaOrCurrent(Connection connection, TableRef ref, boolean catalog)
      throws SQLException {
    if (ref.schema() != null) {
      return ref.schema();
    }
    return catalog ? connection.getCatalog() : connection.getSchema();
  }

  private static String name(TableRef ref) {
    return ref.schema() == null ? ref.table() : ref.schema() + "." + ref.table();
  }

  @Override
  public TargetTable tableOf(TableName source) {
    TargetTable table = tables.get(source);
    if (table == null) {
      throw new IllegalArgumentException("table " + source + " is not applied to this target");
    }
    return table;
  }

  @Override
  public ApplyResult apply(ApplyBatch batch) throws SQLException {
    return applier.apply(batch);
  }

  @Override
  public void removeKeys(TargetTable table, Collection<String> keys, RecordPosition at)
      throws SQLException {
    applier.removeKeys(table.table(), keys, at);
  }

  @Override
  public Optional<PartitionVerdict> storedVerdict(VerdictId id) throws SQLException {
    return applier.storedVerdict(id);
  }

  @Override
  public Optional<Long> checkpointOffset(String topic, int partition) throws SQLException {
    return applier.checkpoint(topic, partition).map(Checkpoint::offset);
  }

  @Override
  public ChunkVerdict verify(ChunkCheck check, CanonicalFormat format, HashFunction hashFunction)
      throws SQLException {
    String id = format.name() + "/" + hashFunction.name();
    ChunkVerifier verifier = verifiers.get(id);
    if (verifier == null) {
      verifier = ChunkVerifier.open(connection, dialect, format, hashFunction, fetchSize);
      verifiers.put(id, verifier);
    }
    return verifier.verify(check);
  }

  @Override
  public boolean usable() {
    try {
      return connection.isValid(VALID_TIMEOUT_SECONDS);
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.warn("closing the target connection failed: {}", e.getMessage());
    }
  }
}
