package io.cdccompare.operations.explain;

import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.table.TableName;
import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.hash.JdbcRowHasher;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.PostgresDialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.status.JdbcTimeouts;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * Explains differences ({@code report explain}): for a key of a table on a target, reads the row
 * now on the source and on the target with the compare's own readers and the table's compared shape
 * (the one its task noted in {@code repi.validatetables}, so mappings and functions are the run's),
 * and compares the source row's hash now with its hash in the run's hash records.
 *
 * <p>Bad input is a {@link ConfigException} naming it: an unknown target, table or run, or a key
 * that does not decode into the table's key columns. Connections and topic reads are kept for the
 * next key; {@linkplain #close() close} it. Not thread-safe.
 */
public final class Explainer implements AutoCloseable {
  private static final HexFormat HEX = HexFormat.of();
  private static final Dialect SOURCE_DIALECT = new PostgresDialect();

  /** One key to explain; an empty run is the table's latest run on the target. */
  public record Request(String target, String table, String key, Optional<String> runId) {}

  private record Run(String task, String runId) {}

  private final TargetsConfig targets;
  private final ReportReader reader;
  private final Duration timeout;
  private final Set<String> mask;
  private Connection source;
  private final Map<String, Connection> targetConnections = new HashMap<>();
  private List<ReportEntry> entries;
  private final Map<String, List<ChunkResult>> results = new HashMap<>();
  private final Map<String, List<HashRecord>> hashes = new HashMap<>();
  private final Map<String, ComparedShape> shapes = new HashMap<>();

  /**
   * @param timeout longest a database connection or statement may take
   */
  public Explainer(TargetsConfig targets, ReportReader reader, Duration timeout) {
    this.targets = targets;
    this.reader = reader;
    this.timeout = timeout;
    this.mask = targets.explainMask();
  }

  /**
   * Explains one key.
   *
   * @throws ConfigException naming the target, table, run or key that is wrong
   * @throws SQLException naming the database that cannot be read
   */
  public RowExplanation explain(Request request) throws SQLException {
    String target = targets.targetName(request.target());
    TableName table = table(request.table());
    Run run =
        request.runId().isPresent()
            ? namedRun(request.runId().get(), target, table)
            : latestRun(target, table);
    ComparedShape shape = shape(run.task(), table);
    String key = request.key();
    requireKey(shape, table, key);

    SideRow onSource =
        SideRow.read(
            source(),
            SOURCE_DIALECT,
            new TableRef(table.schema(), table.table()),
            shape,
            JdbcRowHasher.Side.SOURCE,
            key);
    VerifierSettings settings = targets.verifierSettings(target);
    TableName targetTable = settings.targetTableOf(table);
    Dialect targetDialect = Dialect.forJdbcUrl(settings.database().jdbcUrl());
    SideRow onTarget =
        SideRow.read(
            target(settings, targetDialect),
            targetDialect,
            new TableRef(targetTable.schema(), targetTable.table()),
            shape,
            JdbcRowHasher.Side.TARGET,
            key);

    List<ColumnExplanation> columns = new ArrayList<>();
    List<HashedColumn> hashed = shape.plan().columns();
    for (int i = 0; i < hashed.size(); i++) {
      HashedColumn column = hashed.get(i);
      boolean masked =
          mask.contains(column.sourceName().toLowerCase(Locale.ROOT))
              || mask.contains(column.targetName().toLowerCase(Locale.ROOT));
      String sourceText = onSource.found() ? onSource.texts().get(i) : null;
      String targetText = onTarget.found() ? onTarget.texts().get(i) : null;
      boolean differs =
          onSource.found()
              && onTarget.found()
              && !java.util.Objects.equals(canonicalOrN(sourceText), canonicalOrN(targetText));
      columns.add(
          new ColumnExplanation(
              column.sourceName(),
              column.targetName(),
              onSource.found() ? ShownValue.of(sourceText, masked) : null,
              onTarget.found() ? ShownValue.of(targetText, masked) : null,
              masked,
              differs));
    }
    String outcome = outcome(run, target, table, key);
    Optional<byte[]> runHash = runHash(run, table, key);
    boolean runHashesHeld = !hashes(run, table).isEmpty();
    RowExplanation.SinceRun since;
    String sinceText;
    String runName = "run " + run.runId();
    if (runHash.isPresent()) {
      if (!onSource.found()) {
        since = RowExplanation.SinceRun.CHANGED;
        sinceText = "the source row was deleted since " + runName;
      } else if (Arrays.equals(runHash.get(), onSource.digest())) {
        since = RowExplanation.SinceRun.UNCHANGED;
        sinceText = "the source row has not changed since " + runName + " (same row hash)";
      } else {
        since = RowExplanation.SinceRun.CHANGED;
        sinceText =
            "the source row changed since "
                + runName
                + " (row hash then "
                + HEX.formatHex(runHash.get())
                + ", now "
                + HEX.formatHex(onSource.digest())
                + "): the run's verdict on it may no longer hold";
      }
    } else if (outcome.equals("extra")) {
      since =
          onSource.found() ? RowExplanation.SinceRun.CHANGED : RowExplanation.SinceRun.UNCHANGED;
      sinceText =
          onSource.found()
              ? "the source had no row with this key in " + runName + " and has one now"
              : "the source still has no row with this key, as in " + runName;
    } else if (runHashesHeld) {
      since = RowExplanation.SinceRun.UNKNOWN;
      sinceText =
          runName + " compared no source row with this key, so a change since cannot be told";
    } else {
      since = RowExplanation.SinceRun.UNKNOWN;
      sinceText =
          "the hash records of "
              + runName
              + " are no longer on "
              + targets.reportConfig().hashesTopic()
              + " (removed once every target reported a chunk), so whether the source row"
              + " changed since cannot be told";
    }
    return new RowExplanation(
        run.task(),
        run.runId(),
        target,
        table.toString(),
        key,
        outcome,
        onSource.found(),
        onTarget.found(),
        columns,
        onSource.found() ? Optional.of(HEX.formatHex(onSource.digest())) : Optional.empty(),
        onTarget.found() ? Optional.of(HEX.formatHex(onTarget.digest())) : Optional.empty(),
        since,
        sinceText);
  }

  /** The compatible format writes NULL and the empty string alike; so does the comparison. */
  private static String canonicalOrN(String text) {
    return text == null || text.isEmpty() ? null : text;
  }

  private TableName table(String name) {
    TableName table;
    try {
      table = TableName.parse(name);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("--table " + name + ": " + e.getMessage());
    }
    if (!targets.tables().contains(table)) {
      throw new ConfigException(
          "table " + name + " is not one of the targets file's tables " + targets.tables());
    }
    return table;
  }

  private Run namedRun(String runId, String target, TableName table) {
    List<ChunkResult> ofRun = results(runId);
    if (ofRun.isEmpty()) {
      throw new ConfigException(
          "unknown run "
              + runId
              + ": "
              + targets.reportConfig().resultsTopic()
              + " holds no result of it");
    }
    return ofRun.stream()
        .filter(r -> r.getTarget().equals(target) && r.getTable().equals(table.toString()))
        .findFirst()
        .map(r -> new Run(r.getTask(), runId))
        .orElseThrow(
            () ->
                new ConfigException(
                    "run " + runId + " has no result for table " + table + " on target " + target));
  }

  private Run latestRun(String target, TableName table) {
    if (entries == null) {
      entries = reader.entries();
    }
    return entries.stream()
        .filter(e -> e.getRunId() != null && e.getTable() != null)
        .filter(e -> e.getTarget().equals(target) && e.getTable().equals(table.toString()))
        .max(Comparator.comparing(ReportEntry::getLastUpdate))
        .map(e -> new Run(e.getTask(), e.getRunId()))
        .orElseThrow(
            () ->
                new ConfigException(
                    "the report has no run of table " + table + " on target " + target));
  }

  private List<ChunkResult> results(String runId) {
    return results.computeIfAbsent(runId, id -> reader.results(r -> r.getRunId().equals(id)));
  }

  private String outcome(Run run, String target, TableName table, String key) {
    String outcome = "not listed";
    for (ChunkResult r : results(run.runId())) {
      if (!r.getTarget().equals(target) || !r.getTable().equals(table.toString())) {
        continue;
      }
      if (r.getFailedKeys().contains(key)) {
        return "failed";
      }
      if (r.getMissedKeys().contains(key)) {
        return "missed";
      }
      if (r.getExtraKeys().contains(key)) {
        return "extra";
      }
      if (r.getInFlightKeys().contains(key)) {
        outcome = "in flight";
      }
    }
    return outcome;
  }

  private List<HashRecord> hashes(Run run, TableName table) {
    return hashes.computeIfAbsent(
        run.runId() + "\u0000" + table,
        k ->
            reader.hashes(
                h -> h.getRunId().equals(run.runId()) && h.getTable().equals(table.toString())));
  }

  private Optional<byte[]> runHash(Run run, TableName table, String key) {
    for (HashRecord record : hashes(run, table)) {
      int index = record.getKeys().indexOf(key);
      if (index >= 0) {
        ByteBuffer all = record.getHashes().duplicate();
        byte[] hash = new byte[record.getHashLength()];
        all.position(all.position() + index * record.getHashLength());
        all.get(hash);
        return Optional.of(hash);
      }
    }
    return Optional.empty();
  }

  private static void requireKey(ComparedShape shape, TableName table, String key) {
    KeyCodec codec = new KeyCodec(shape.keyColumns().stream().map(HashedColumn::type).toList());
    try {
      codec.decode(key);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          "key '"
              + key
              + "' does not parse for the key columns "
              + shape.keyColumns().stream().map(HashedColumn::sourceName).toList()
              + " of "
              + table
              + ": "
              + e.getMessage());
    }
  }

  private ComparedShape shape(String task, TableName table) throws SQLException {
    String id = task + "\u0000" + table;
    ComparedShape known = shapes.get(id);
    if (known != null) {
      return known;
    }
    try (PreparedStatement s =
        source()
            .prepareStatement(
                "SELECT compared_shape FROM repi.validatetables"
                    + " WHERE task = ? AND table_schema = ? AND table_name = ?")) {
      s.setString(1, task);
      s.setString(2, table.schema());
      s.setString(3, table.table());
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next() || rs.getString(1) == null) {
          throw new ConfigException(
              "task " + task + " has noted no compared shape of " + table + " on the source");
        }
        ComparedShape shape = ComparedShape.fromJson(rs.getString(1));
        shapes.put(id, shape);
        return shape;
      }
    }
  }

  private Connection source() throws SQLException {
    if (source == null) {
      SourceDatabase database =
          targets
              .source()
              .orElseThrow(
                  () ->
                      new ConfigException(
                          "explain reads the row on the source: the targets file needs the"
                              + " source.* keys (source.hostname, source.database, source.user,"
                              + " source.password)"));
      source =
          database.connect(
              "cdc-compare-explain", JdbcTimeouts.properties(database.jdbcUrl(), timeout));
      source.setReadOnly(true);
    }
    return source;
  }

  private Connection target(VerifierSettings settings, Dialect dialect) throws SQLException {
    Connection known = targetConnections.get(settings.target());
    if (known != null) {
      return known;
    }
    String url = settings.database().jdbcUrl();
    Connection connection;
    try {
      connection = JdbcTimeouts.connect(settings.database(), timeout);
    } catch (SQLException e) {
      throw new SQLException(
          "cannot connect to target "
              + settings.target()
              + " at "
              + JdbcTimeouts.display(url)
              + ": "
              + e.getMessage(),
          e.getSQLState(),
          e);
    }
    TargetSession.prepare(connection, dialect);
    targetConnections.put(settings.target(), connection);
    return connection;
  }

  @Override
  public void close() {
    List<Connection> all = new ArrayList<>(targetConnections.values());
    if (source != null) {
      all.add(source);
    }
    for (Connection c : all) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing a read-only connection: nothing to keep
      }
    }
    targetConnections.clear();
    source = null;
  }
}
