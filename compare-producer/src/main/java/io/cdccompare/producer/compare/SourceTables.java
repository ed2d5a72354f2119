package io.cdccompare.producer.compare;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.rowhash.plan.ColumnMapping;
import io.cdccompare.core.rowhash.plan.HashPlan;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.rowhash.plan.TableHashRules;
import io.cdccompare.core.table.TableName;
import io.cdccompare.jdbc.hash.TableCatalog;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.source.PgCatalog;
import io.cdccompare.source.TopicLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * Resolves table tasks against the source catalog, read-only: the table exists, its key (the
 * primary key unless configured) and compared columns exist and can be compared, and the capture
 * has recorded the table's topic. Every identifier is looked up with bound parameters before it is
 * ever quoted into SQL, so a name trying SQL injection is just a table or column that does not
 * exist. Errors are {@link ConfigException}s naming the key and the table or column at fault.
 */
final class SourceTables {
  private final Connection connection;
  private final String database;
  private final String topicPrefix;
  private final CanonicalFormat format;
  private final HashFunction hashFunction;
  private final boolean externalCapture;
  private final int hashLength;
  private final Dialect dialect = new PostgresDialect();

  SourceTables(
      Connection connection,
      String database,
      String topicPrefix,
      CanonicalFormat format,
      HashFunction hashFunction,
      boolean externalCapture) {
    this.connection = connection;
    this.externalCapture = externalCapture;
    this.database = database;
    this.topicPrefix = topicPrefix;
    this.format = format;
    this.hashFunction = hashFunction;
    this.hashLength = hashFunction.newDigest().digest(new byte[0], 0, 0).length;
  }

  ScanPlan resolve(TableTask task) throws SQLException {
    TableName name = task.table();
    String path = TableSettings.PREFIX + name + ".";
    if (!PgCatalog.tableExists(connection, name)) {
      throw new ConfigException(
          "tables: table " + name + " does not exist in source database " + database);
    }
    TableRef ref = new TableRef(name.schema(), name.table());
    Map<String, ColumnType> physical = TableCatalog.describe(connection, dialect, ref);
    List<String> primaryKey =
        PgCatalog.primaryKey(connection, name).stream().map(PgCatalog.KeyColumn::name).toList();
    List<String> key = task.keyColumns().isEmpty() ? primaryKey : task.keyColumns();
    if (!primaryKey.isEmpty() && !key.equals(primaryKey)) {
      throw new ConfigException(
          path
              + "key.columns is "
              + key
              + " but the capture keys the changes of "
              + name
              + " by its primary key "
              + primaryKey
              + ": leave it out or name the primary key");
    }
    if (key.isEmpty()) {
      throw new ConfigException(
          "table " + name + " has no primary key: name its key columns in " + path + "key.columns");
    }
    requireColumns(path + "key.columns", name, key, physical);
    requireColumns(path + "columns", name, task.comparedColumns(), physical);
    try {
      List<LogicalType> keyTypes = new ArrayList<>();
      for (String column : key) {
        keyTypes.add(dialect.access(column, physical.get(column)).defaultType());
      }
      HashPlan plan =
          withCompared(task, physical).resolve(TableCatalog.sourceColumns(dialect, physical));
      List<HashedColumn> keyColumns = new ArrayList<>();
      for (int i = 0; i < key.size(); i++) {
        keyColumns.add(
            new HashedColumn(
                key.get(i), targetName(task.rules(), key.get(i)), keyTypes.get(i), List.of()));
      }
      ComparedShape shape =
          new ComparedShape(
              keyColumns,
              plan,
              format,
              hashFunction.name(),
              task.targetTable() == null ? null : task.targetTable().toString());
      String topic = TopicLayout.topicName(topicPrefix, name);
      return new ScanPlan(
          task,
          dialect,
          ref,
          key,
          new KeyCodec(keyTypes),
          physical,
          shape,
          hashFunction,
          hashLength,
          topic,
          externalCapture ? 1 : capturedPartitions(name, topic),
          externalCapture);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(path.substring(0, path.length() - 1) + ": " + e.getMessage());
    }
  }

  /** The rules, with every column outside an explicit {@code columns} list excluded. */
  private static TableHashRules withCompared(TableTask task, Map<String, ColumnType> physical) {
    TableHashRules rules = task.rules();
    if (task.comparedColumns().isEmpty()) {
      return rules;
    }
    Set<String> excluded = new HashSet<>(physical.keySet());
    task.comparedColumns().forEach(excluded::remove);
    return new TableHashRules(
        rules.table(),
        rules.mappings(),
        excluded,
        rules.columnFunctions(),
        rules.typeFunctions(),
        rules.declaredTypes());
  }

  private static String targetName(TableHashRules rules, String column) {
    return rules.mappings().stream()
        .filter(m -> m.sourceColumn().equals(column))
        .map(ColumnMapping::targetColumn)
        .findFirst()
        .orElse(column);
  }

  private static void requireColumns(
      String key, TableName table, List<String> columns, Map<String, ColumnType> physical) {
    for (String column : columns) {
      if (!physical.containsKey(column)) {
        throw new ConfigException(
            key + ": column '" + column + "' does not exist in source table " + table);
      }
    }
  }

  /** The partition count the capture recorded for the table's topic. */
  private int capturedPartitions(TableName table, String topic) throws SQLException {
    if (!PgCatalog.tableExists(connection, new TableName("repi", "capturetopics"))) {
      throw new ConfigException(
          "source database "
              + database
              + " has no repi.capturetopics: start the capture (topic.prefix="
              + topicPrefix
              + ") before comparing");
    }
    try (PreparedStatement s =
        connection.prepareStatement("SELECT partitions FROM repi.capturetopics WHERE topic = ?")) {
      s.setString(1, topic);
      try (ResultSet rs = s.executeQuery()) {
        if (rs.next()) {
          return rs.getInt(1);
        }
      }
    }
    throw new ConfigException(
        "tables: table "
            + table
            + " is not captured (no topic "
            + topic
            + " in repi.capturetopics): add it to the capture's tables (topic.prefix="
            + topicPrefix
            + ") and start the capture");
  }
}
