package io.cdccompare.producer.compare;

import io.cdccompare.config.ConnectionConfig;
import io.cdccompare.config.ConnectionSettings;
import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import io.cdccompare.config.FileKeys;
import io.cdccompare.core.chunk.ChunkSampling;
import io.cdccompare.core.compare.ChunkPacing;
import io.cdccompare.core.compare.TableTask;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.TaskKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;

/**
 * Configuration of one compare task (one file): the shared connection keys ({@link
 * ConnectionSettings}), the task's own keys declared here with type, default, validation and
 * documentation, and the per-table keys of {@link TableSettings}. {@code producer.*}, {@code
 * admin.*} and {@code schema.registry.*} settings pass through to the Kafka clients. Everything is
 * checked when the file is loaded; what needs the database is checked before anything is written.
 * Over 300 lines because every key is declared here with its type, default, check and
 * documentation.
 */
public final class CompareConfig extends ConnectionConfig {
  public static final String TASK_NAME = "task.name";
  public static final String TASK_KIND = "task.kind";
  public static final String TABLES = "tables";
  public static final String CAPTURE = "capture";
  public static final String CHUNK = "chunk";
  public static final String DEEP = "deep";
  public static final String DEEP_ROTATE = "deep.rotate";
  public static final String HASH_FORMAT = "hash.format";
  public static final String HASH_FUNCTION = "hash.function";
  public static final String HASHES_TOPIC = CompareTopics.HASHES_KEY;
  public static final String HASHES_PARTITIONS = "hashes.topic.partitions";
  public static final String HASHES_REPLICATION = "hashes.topic.replication.factor";
  public static final String HASHES_MAX_BYTES = "hashes.max.record.bytes";
  public static final String FETCH_SIZE = "fetch.size";
  public static final String READ_VISIBILITY_TIMEOUT_MS = "read.visibility.timeout.ms";
  public static final String MAX_ROWS_PER_SECOND = "throttle.max.rows.per.second";
  public static final String CHUNK_TIME_MS = "throttle.chunk.time.ms";
  public static final String PROGRESS = "progress";
  public static final String PROGRESS_INTERVAL_MS = "progress.interval.ms";
  public static final String TARGETS = "targets";
  public static final String FLOW_AHEAD = "flow.chunks.ahead";
  public static final String FLOW_STALL_MS = "flow.stall.timeout.ms";
  public static final String RECHECK_IN_FLIGHT = "recheck.in.flight";
  public static final String RECHECK_ATTEMPTS = "recheck.attempts";
  public static final String RESULTS_TOPIC = CompareTopics.RESULTS_KEY;
  public static final String REPORT_TOPIC = CompareTopics.REPORT_KEY;

  /** The largest chunk: a chunk's compared keys and hashes are held in memory until it closes. */
  static final int MAX_CHUNK = 1_000_000;

  static final Set<String> PREFIXES =
      Set.of("producer.", "admin.", "schema.registry.", TableSettings.PREFIX);
  static final ConfigDef DEFINITION =
      ConnectionSettings.define(new ConfigDef())
          .define(
              TASK_NAME,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new TaskName(),
              Importance.HIGH,
              "Name of the task: its notes, positions and results are kept under it.")
          .define(
              TASK_KIND,
              Type.STRING,
              "full",
              ValidString.in("full", "incremental"),
              Importance.MEDIUM,
              "full compares every chunk of the tables; incremental only the keys changed since"
                  + " each table's last completed run (a table without one gets a full run).")
          .define(
              CAPTURE,
              Type.STRING,
              "cdc-compare",
              ValidString.in("cdc-compare", "kafka-connect"),
              Importance.HIGH,
              "Who captures the source: cdc-compare (its own capture, markers in the table"
                  + " topics) or kafka-connect (a Debezium PostgreSQL connector on Kafka Connect with"
                  + " topic.prefix, repi.validatetables in its table.include.list; full runs only,"
                  + " README \"Checking a Kafka Connect pipeline you already run\").")
          .define(
              TABLES,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConnectionSettings.TableList(),
              Importance.HIGH,
              "Compared tables in order, comma separated schema.table; each must be captured"
                  + " (its topic recorded by the capture with the same topic.prefix).")
          .define(
              CHUNK,
              Type.INT,
              ChunkSampling.DEFAULT_CHUNK,
              Range.between(1, MAX_CHUNK),
              Importance.MEDIUM,
              "Rows per chunk, in key order (per table: table.<t>.chunk).")
          .define(
              DEEP,
              Type.INT,
              ChunkSampling.DEFAULT_DEEP,
              Range.between(1, 100),
              Importance.MEDIUM,
              "Percent of each chunk compared: its last round(rows x deep / 100) rows; 100"
                  + " compares every row (per table: table.<t>.deep).")
          .define(
              DEEP_ROTATE,
              Type.BOOLEAN,
              false,
              Importance.MEDIUM,
              "Below deep=100, whether each run of the task compares the next slice of every"
                  + " chunk instead of its last rows, so that ceil(100 / deep) runs compare every"
                  + " row (per table: table.<t>.deep.rotate).")
          .define(
              HASH_FORMAT,
              Type.STRING,
              "compatible",
              ValidString.in("compatible", "strict"),
              Importance.LOW,
              "Canonical row text: compatible (joined with ',', NULL = empty = N) or strict.")
          .define(
              HASH_FUNCTION,
              Type.STRING,
              "MD5",
              new HashName(),
              Importance.LOW,
              "Row hash function, any JCA digest name (MD5, SHA-256).")
          .define(
              HASHES_TOPIC,
              Type.STRING,
              "",
              Importance.LOW,
              "Topic of the hash records (default: <prefix>.compare.hashes); created compacted.")
          .define(
              HASHES_PARTITIONS,
              Type.INT,
              3,
              Range.between(1, 10_000),
              Importance.LOW,
              "Partitions of the hashes topic when this task creates it.")
          .define(
              HASHES_REPLICATION,
              Type.SHORT,
              (short) -1,
              Importance.LOW,
              "Replication factor of the hashes topic when this task creates it (-1: the broker's).")
          .define(
              HASHES_MAX_BYTES,
              Type.INT,
              0,
              Range.atLeast(0),
              Importance.LOW,
              "Largest hash record in bytes; a bigger one is split into parts (0: from the topic's"
                  + " max.message.bytes and the producer's max.request.size).")
          .define(
              FETCH_SIZE,
              Type.INT,
              10_000,
              Range.between(1, MAX_CHUNK),
              Importance.LOW,
              "Rows fetched per round trip while a chunk is read.")
          .define(
              READ_VISIBILITY_TIMEOUT_MS,
              Type.LONG,
              60_000L,
              Range.atLeast(1),
              Importance.LOW,
              "How long a chunk's read waits at most for the source transactions that were in"
                  + " progress when its OPEN note committed (a commit in the WAL is visible to new"
                  + " snapshots only a moment later); past it the run stops naming them, and"
                  + " resumes at that chunk when run again.")
          .define(
              MAX_ROWS_PER_SECOND,
              Type.LONG,
              0L,
              Range.atLeast(0),
              Importance.MEDIUM,
              "Throttle: at most this many rows read per second (0: no limit).")
          .define(
              CHUNK_TIME_MS,
              Type.LONG,
              0L,
              Range.atLeast(0),
              Importance.MEDIUM,
              "Throttle: each chunk takes at least this long, the producer rests after a faster one"
                  + " (0: no limit).")
          .define(
              PROGRESS,
              Type.STRING,
              "auto",
              ValidString.in("auto", "bar", "log", "off"),
              Importance.LOW,
              "Progress: a live bar on a terminal, log lines otherwise (auto), or forced.")
          .define(
              PROGRESS_INTERVAL_MS,
              Type.LONG,
              10_000L,
              Range.atLeast(100),
              Importance.LOW,
              "How often a progress log line is written.")
          .define(
              TARGETS,
              Type.LIST,
              List.of(),
              new TargetNames(),
              Importance.MEDIUM,
              "Targets that verify this task (names as in the targets file): compare run --wait"
                  + " waits until each one verified every noted chunk.")
          .define(
              FLOW_AHEAD,
              Type.INT,
              3,
              Range.between(0, 1_000),
              Importance.MEDIUM,
              "Flow control, with targets: the run notes at most this many chunks of a table"
                  + " ahead of the slowest target's verdicts, so the verdicts follow the scan at a"
                  + " bounded distance (0: no flow control).")
          .define(
              FLOW_STALL_MS,
              Type.LONG,
              60_000L,
              Range.atLeast(1_000),
              Importance.LOW,
              "Flow control: a target that publishes no verdict for this long while the run waits"
                  + " for it is no longer waited for in this run.")
          .define(
              RECHECK_IN_FLIGHT,
              Type.BOOLEAN,
              true,
              Importance.MEDIUM,
              "compare run --wait: once every target verified the run, recheck its in-flight keys"
                  + " (each at the targets that listed it) until none is left or"
                  + " recheck.attempts were made; a key still changing then is unsettled.")
          .define(
              RECHECK_ATTEMPTS,
              Type.INT,
              3,
              Range.between(1, 20),
              Importance.LOW,
              "Rechecks of the keys still in flight at most, for recheck.in.flight and for"
                  + " compare recheck --wait.")
          .define(
              RESULTS_TOPIC,
              Type.STRING,
              "",
              Importance.LOW,
              "Topic of the verifiers' chunk results that flow control reads (default:"
                  + " <prefix>.compare.results, the targets file's default).")
          .define(
              REPORT_TOPIC,
              Type.STRING,
              "",
              Importance.LOW,
              "Topic of the report entries that compare run --wait reads (default:"
                  + " <prefix>.compare.report, the targets file's default).");

  private final List<TableTask> tableTasks;

  private CompareConfig(Map<String, String> raw) {
    super(raw, new AbstractConfig(DEFINITION, raw, false));
    if (externalCapture() && values.getString(TASK_KIND).equals("incremental")) {
      throw new ConfigException(
          TASK_KIND
              + "=incremental reads the changes from cdc-compare's own capture; with "
              + CAPTURE
              + "=kafka-connect only full runs are supported");
    }
    this.tableTasks =
        TableSettings.parse(
            TableName.parseList(values.getString(TABLES)),
            raw,
            new ChunkSampling(
                values.getInt(CHUNK), values.getInt(DEEP), values.getBoolean(DEEP_ROTATE)));
  }

  /**
   * Every key of a task file: what it is checked against, and what the generated reference shows.
   */
  public static final FileKeys KEYS =
      FileKeys.of(
          "compare task configuration",
          DEFINITION,
          PREFIXES,
          "table.<schema.table>.",
          TableSettings.SETTINGS);

  /** Loads and checks a task file; errors name the file and the key at fault. */
  public static CompareConfig load(Path file) {
    return load(file, KEYS, CompareConfig::new);
  }

  public static CompareConfig of(Map<String, String> values) {
    return of(values, KEYS, CompareConfig::new);
  }

  public String taskName() {
    return values.getString(TASK_NAME);
  }

  /**
   * What a run of the task compares ({@value #TASK_KIND}): {@link TaskKind#FULL} with {@link
   * CompareRun}, {@link TaskKind#INCREMENTAL} with {@link IncrementalRun}.
   */
  public TaskKind kind() {
    return values.getString(TASK_KIND).equals("incremental") ? TaskKind.INCREMENTAL : TaskKind.FULL;
  }

  /**
   * Whether a Debezium connector on Kafka Connect captures the source ({@value #CAPTURE}{@code
   * =kafka-connect}): no markers in the table topics, the notes reach the verifiers on the
   * connector's topic of {@code repi.validatetables}, and every chunk is judged whole, as one
   * logical partition (docs/design.md, "Stock Debezium pipelines").
   */
  public boolean externalCapture() {
    return values.getString(CAPTURE).equals("kafka-connect");
  }

  public SourceDatabase source() {
    return ConnectionSettings.source(values);
  }

  /** The tables, in the order they are compared. */
  public List<TableTask> tables() {
    return tableTasks;
  }

  public CanonicalFormat hashFormat() {
    return CanonicalFormat.valueOf(values.getString(HASH_FORMAT).toUpperCase(Locale.ROOT));
  }

  public HashFunction hashFunction() {
    return HashFunction.messageDigest(values.getString(HASH_FUNCTION));
  }

  /** The compare's topics: the defaults under the topic prefix, or the names this file sets. */
  public CompareTopics topics() {
    // a task has no alerts of its own: its alerts topic stays the default
    return CompareTopics.configured(
        topicPrefix(), key -> key.equals(CompareTopics.ALERTS_KEY) ? null : values.getString(key));
  }

  public String hashesTopic() {
    return topics().hashes();
  }

  public int hashesTopicPartitions() {
    return values.getInt(HASHES_PARTITIONS);
  }

  public short hashesTopicReplicationFactor() {
    return values.getShort(HASHES_REPLICATION);
  }

  /** The configured largest hash record, 0 when it comes from the topic and producer limits. */
  public int hashesMaxRecordBytes() {
    return values.getInt(HASHES_MAX_BYTES);
  }

  public int fetchSize() {
    return values.getInt(FETCH_SIZE);
  }

  public ChunkPacing pacing() {
    return new ChunkPacing(
        values.getLong(MAX_ROWS_PER_SECOND), Duration.ofMillis(values.getLong(CHUNK_TIME_MS)));
  }

  public String progress() {
    return values.getString(PROGRESS);
  }

  public Duration progressInterval() {
    return Duration.ofMillis(values.getLong(PROGRESS_INTERVAL_MS));
  }

  /** The targets that verify this task, in order; empty when the file names none. */
  public List<String> targets() {
    return values.getList(TARGETS);
  }

  /** Chunks a table's run may note ahead of the slowest target's verdicts; 0 without control. */
  public int flowChunksAhead() {
    return targets().isEmpty() ? 0 : values.getInt(FLOW_AHEAD);
  }

  /** Whether {@code compare run --wait} rechecks the run's in-flight keys. */
  public boolean recheckInFlight() {
    return values.getBoolean(RECHECK_IN_FLIGHT);
  }

  /** Rechecks of keys still in flight at most. */
  public int recheckAttempts() {
    return values.getInt(RECHECK_ATTEMPTS);
  }

  /**
   * How long a chunk's read waits for transactions in progress at its OPEN ({@link ExactSnapshot}).
   */
  public Duration readVisibilityTimeout() {
    return Duration.ofMillis(values.getLong(READ_VISIBILITY_TIMEOUT_MS));
  }

  public Duration flowStallTimeout() {
    return Duration.ofMillis(values.getLong(FLOW_STALL_MS));
  }

  public String resultsTopic() {
    return topics().results();
  }

  /** A task name is safe in a Kafka record key and a log line. */
  static final class TaskName implements ConfigDef.Validator {
    @Override
    public String toString() {
      return "1-100 of the characters a-z A-Z 0-9 . _ -";
    }

    @Override
    public void ensureValid(String name, Object value) {
      if (value == null || !value.toString().matches("[a-zA-Z0-9._-]{1,100}")) {
        throw new ConfigException(name, value, "use 1-100 of the characters a-z A-Z 0-9 . _ -");
      }
    }
  }

  /** Target names as the targets file spells them, each once. */
  static final class TargetNames implements ConfigDef.Validator {
    @Override
    public String toString() {
      return "target names of letters, digits, _ or -, each once";
    }

    @Override
    public void ensureValid(String name, Object value) {
      List<?> names = (List<?>) value;
      for (Object target : names) {
        if (target == null || !target.toString().matches("[A-Za-z0-9_-]+")) {
          throw new ConfigException(
              name, value, "a target name is letters, digits, _ or -, was '" + target + "'");
        }
      }
      if (Set.copyOf(names).size() != names.size()) {
        throw new ConfigException(name, value, "names a target twice");
      }
    }
  }

  /** The JVM provides the hash function. */
  static final class HashName implements ConfigDef.Validator {
    @Override
    public String toString() {
      return "a JCA digest name the JVM provides";
    }

    @Override
    public void ensureValid(String name, Object value) {
      try {
        HashFunction.messageDigest(String.valueOf(value));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }
  }
}
