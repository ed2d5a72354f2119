package io.cdccompare.capture;

import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.jdbc.sql.ColumnType;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.source.NoteTable;
import io.cdccompare.source.PgCatalog;
import io.cdccompare.source.SignalTable;
import io.cdccompare.source.TopicLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the capture needs to know and set up on the source PostgreSQL: that each table exists and
 * has a key, the note tables and the signal table, the publication (exactly the captured tables
 * plus the note table and the signal table) and the replication slot's state. Every identifier is
 * checked against the catalog and quoted; values are bound parameters.
 */
final class SourceCatalog implements AutoCloseable, TopicLayout.PartitionRecord {
  private static final PostgresDialect DIALECT = new PostgresDialect();

  private final Connection connection;
  private final String database;

  SourceCatalog(CaptureConfig config) throws SQLException {
    this.connection = config.source().connect("cdc-compare-capture");
    this.database = config.source().database();
  }

  /** A key column and its database-independent type. */
  record KeyColumn(String name, LogicalType type) {}

  /**
   * The key columns of a table, in key order: its primary key, or for a table without one the
   * configured key, which must be NOT NULL columns of a unique index, and which the table's replica
   * identity must carry in every update and delete (otherwise a delete would reach Kafka without
   * its key). Refuses a missing table, a keyless table without a configured key, and a configured
   * key other than the primary key, naming what to change.
   */
  List<KeyColumn> keyColumns(TableName table, List<String> configured) throws SQLException {
    if (!PgCatalog.tableExists(connection, table)) {
      throw new IllegalArgumentException(
          "table " + table + " does not exist in source database " + database);
    }
    List<PgCatalog.KeyColumn> primaryKey = PgCatalog.primaryKey(connection, table);
    List<KeyColumn> columns = new ArrayList<>();
    if (!primaryKey.isEmpty()) {
      List<String> names = primaryKey.stream().map(PgCatalog.KeyColumn::name).toList();
      if (!configured.isEmpty() && !configured.equals(names)) {
        throw new IllegalArgumentException(
            "table "
                + table
                + " has the primary key "
                + names
                + "; table."
                + table
                + ".key.columns may only name it (the capture keys changes by it)");
      }
      for (PgCatalog.KeyColumn column : primaryKey) {
        columns.add(new KeyColumn(column.name(), keyType(table, column.name(), column.typeName())));
      }
      return columns;
    }
    if (configured.isEmpty()) {
      throw new IllegalArgumentException(
          "table "
              + table
              + " has no primary key; name its key with table."
              + table
              + ".key.columns (NOT NULL columns of a unique index)");
    }
    for (String name : configured) {
      PgCatalog.Column column =
          PgCatalog.column(connection, table, name)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "table " + table + " has no column " + name + " (its key.columns)"));
      if (!column.notNull()) {
        throw new IllegalArgumentException(
            "key column " + name + " of table " + table + " may be NULL; declare it NOT NULL");
      }
      columns.add(new KeyColumn(column.name(), keyType(table, name, column.typeName())));
    }
    requireUniqueAndIdentified(table, Set.copyOf(configured));
    return columns;
  }

  private void requireUniqueAndIdentified(TableName table, Set<String> key) throws SQLException {
    List<PgCatalog.UniqueIndex> indexes = PgCatalog.uniqueIndexes(connection, table);
    Optional<PgCatalog.UniqueIndex> unique =
        indexes.stream().filter(i -> i.columns().equals(key)).findFirst();
    if (unique.isEmpty()) {
      throw new IllegalArgumentException(
          "table "
              + table
              + " has no unique index on exactly "
              + key
              + "; a key must be unique (CREATE UNIQUE INDEX … ON "
              + table
              + " (…))");
    }
    char identity = PgCatalog.replicaIdentity(connection, table);
    boolean carried =
        identity == 'f'
            || (identity == 'i'
                && indexes.stream()
                    .anyMatch(i -> i.replicaIdentity() && i.columns().containsAll(key)));
    if (!carried) {
      throw new IllegalArgumentException(
          "table "
              + table
              + " does not send its key with updates and deletes (replica identity "
              + identity
              + "): ALTER TABLE "
              + quote(table.schema())
              + "."
              + quote(table.table())
              + " REPLICA IDENTITY USING INDEX "
              + quote(unique.get().name()));
    }
  }

  /**
   * The logical type of a PostgreSQL key column, by its type name: the same mapping the compare
   * task and the targets' verifier use (jdbc's PostgreSQL dialect). A type that cannot be part of a
   * compared key is refused naming the table and column.
   */
  static LogicalType keyType(TableName table, String column, String typeName) {
    try {
      LogicalType type = DIALECT.access(column, ColumnType.of(typeName)).defaultType();
      if (type == LogicalType.JSON) {
        throw new IllegalArgumentException("JSON");
      }
      return type;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "table "
              + table
              + " key column "
              + column
              + " has type "
              + typeName
              + ", which cannot be part of a compared key");
    }
  }

  /**
   * Creates the {@code repi} schema and its tables (notes, positions, signals, re-send fences) when
   * missing, and (re)installs the signal table's re-send fence trigger.
   */
  void ensureNoteTables() throws SQLException {
    NoteTable.create(connection);
    try (Statement s = connection.createStatement()) {
      s.execute(SignalTable.DDL);
      s.execute(SignalTable.FENCES_DDL);
    }
    if (!fenceInstalled()) {
      try (Statement s = connection.createStatement()) {
        s.execute(SignalTable.FENCE_FUNCTION);
        s.execute(SignalTable.FENCE_TRIGGER);
      }
    }
  }

  /** Whether this version's re-send fence is on the signal table (installed only when not). */
  private boolean fenceInstalled() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(SignalTable.FENCE_INSTALLED)) {
      p.setString(1, SignalTable.fenceFunctionBody());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1) == 1;
      }
    }
  }

  /**
   * Creates the publication, or sets its tables to exactly {@code tables} plus the note table and
   * the signal table (Debezium reads signals and its incremental snapshot's watermarks from the
   * write-ahead log).
   */
  void ensurePublication(String name, List<TableName> tables) throws SQLException {
    Set<TableName> wanted = new LinkedHashSet<>(tables);
    wanted.add(NoteTable.NAME);
    wanted.add(SignalTable.NAME);
    StringBuilder list = new StringBuilder();
    for (TableName t : wanted) {
      if (list.length() > 0) {
        list.append(", ");
      }
      list.append(quote(t.schema())).append('.').append(quote(t.table()));
    }
    Optional<Set<TableName>> existing = publicationTables(name);
    try (Statement s = connection.createStatement()) {
      if (existing.isEmpty()) {
        s.execute("CREATE PUBLICATION " + quote(name) + " FOR TABLE " + list);
      } else if (!existing.get().equals(wanted)) {
        s.execute("ALTER PUBLICATION " + quote(name) + " SET TABLE " + list);
      }
    }
  }

  private Optional<Set<TableName>> publicationTables(String name) throws SQLException {
    try (PreparedStatement p =
        connection.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
      p.setString(1, name);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
      }
    }
    Set<TableName> tables = new LinkedHashSet<>();
    try (PreparedStatement p =
        connection.prepareStatement(
            "SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?")) {
      p.setString(1, name);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          tables.add(new TableName(rs.getString(1), rs.getString(2)));
        }
      }
    }
    return Optional.of(tables);
  }

  /** The slot's state, or empty when there is no slot of that name. */
  Optional<SlotState> slot(String name) throws SQLException {
    try (PreparedStatement p =
        connection.prepareStatement(
            "SELECT confirmed_flush_lsn::text, wal_status, invalidation_reason, database"
                + " FROM pg_replication_slots WHERE slot_name = ?")) {
      p.setString(1, name);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new SlotState(
                name, rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
      }
    }
  }

  /** The partition count recorded for a topic when the capture first used it. */
  @Override
  public Optional<Integer> recordedPartitions(String topic) throws SQLException {
    try (PreparedStatement p =
        connection.prepareStatement("SELECT partitions FROM repi.capturetopics WHERE topic = ?")) {
      p.setString(1, topic);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? Optional.of(rs.getInt(1)) : Optional.empty();
      }
    }
  }

  @Override
  public void recordPartitions(String topic, int partitions) throws SQLException {
    try (PreparedStatement p =
        connection.prepareStatement(
            "INSERT INTO repi.capturetopics (topic, partitions) VALUES (?, ?)"
                + " ON CONFLICT (topic) DO NOTHING")) {
      p.setString(1, topic);
      p.setInt(2, partitions);
      p.executeUpdate();
    }
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }

  /** A replication slot as {@code pg_replication_slots} shows it. */
  record SlotState(
      String name,
      String confirmedFlushLsn,
      String walStatus,
      String invalidationReason,
      String database) {
    boolean lost() {
      return "lost".equals(walStatus) || invalidationReason != null;
    }
  }
}
