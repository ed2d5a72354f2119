package io.cdccompare.operations.config;

import io.cdccompare.config.ConfigFile;
import io.cdccompare.config.ConnectionConfig;
import io.cdccompare.config.ConnectionSettings;
import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import io.cdccompare.config.FileKeys;
import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.source.NoteTable;
import io.cdccompare.verifier.stream.ConnectPipeline;
import io.cdccompare.verifier.stream.TargetMode;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The targets file: the verify side of a deployment. It names Kafka, the replicated tables and one
 * or more targets ({@code target.<name>.url}, …); {@code verify --target NAME} runs one of them,
 * {@code report} and {@code status} read every one. The source keys are optional here and used by
 * {@code status} only (the capture slot). Every key is declared with its type, default and
 * validation; unknown keys, and unknown keys of a target section, are refused with their name.
 */
public final class TargetsConfig extends ConnectionConfig {
  public static final String TABLES = "tables";
  public static final String TARGETS = "targets";
  public static final String APPLY_BATCH_SIZE = "apply.batch.size";
  public static final String APPLY_MAX_DELAY_MS = "apply.max.delay.ms";
  public static final String FETCH_SIZE = "fetch.size";
  public static final String HASHES_TIMEOUT_MS = "hashes.timeout.ms";
  public static final String FOLLOW_STALL_TIMEOUT_MS = "follow.stall.timeout.ms";
  public static final String STATEMENT_TIMEOUT_MS = "statement.timeout.ms";
  public static final String RETRY_TIMEOUT_MS = "retry.timeout.ms";
  public static final String RESULTS_TOPIC = CompareTopics.RESULTS_KEY;
  public static final String HASHES_TOPIC = CompareTopics.HASHES_KEY;
  public static final String REPORT_TOPIC = CompareTopics.REPORT_KEY;
  public static final String ALERTS_TOPIC = CompareTopics.ALERTS_KEY;
  public static final String REPORT_AGGREGATE = "report.aggregate";
  public static final String RESULTS_TOPIC_CHECK_MS = "results.topic.check.ms";
  public static final String SLOT_NAME = "slot.name";
  public static final String STATE_DIR = "state.dir";
  public static final String EXPLAIN_MASK = "explain.mask";
  public static final String CONNECT_CONNECTOR = "connect.connector";
  public static final String CONNECT_OFFSETS_TOPIC = "connect.offsets.topic";
  public static final String CONNECT_NOTES_TOPIC = "connect.notes.topic";
  public static final String CONNECT_KEY_CONVERTER = "connect.key.converter";
  public static final String CONNECT_VALUE_CONVERTER = "connect.value.converter";

  static final String TARGET_PREFIX = "target.";
  static final String STREAMS_PREFIX = "streams.";
  static final String CONNECT_PREFIX = "connect.";
  static final Set<String> PREFIXES =
      Set.of(
          TARGET_PREFIX,
          STREAMS_PREFIX,
          "admin.",
          "consumer.",
          "schema.registry.",
          CONNECT_KEY_CONVERTER + ".",
          CONNECT_VALUE_CONVERTER + ".");
  private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
  static final ConfigDef DEFINITION =
      ConnectionSettings.defineSource(ConnectionSettings.defineKafka(new ConfigDef()), false)
          .define(
              TABLES,
              Type.STRING,
              ConfigDef.NO_DEFAULT_VALUE,
              new ConnectionSettings.TableList(),
              Importance.HIGH,
              "Source tables whose changes are applied and verified on every target, in order.")
          .define(
              TARGETS,
              Type.LIST,
              List.of(),
              Importance.HIGH,
              "The targets, in order (default: every name under target.<name>.).")
          .define(
              APPLY_BATCH_SIZE,
              Type.INT,
              VerifierSettings.DEFAULT_APPLY_BATCH_SIZE,
              Range.atLeast(1),
              Importance.MEDIUM,
              "Changes applied in one target transaction at most.")
          .define(
              APPLY_MAX_DELAY_MS,
              Type.LONG,
              VerifierSettings.DEFAULT_APPLY_MAX_DELAY.toMillis(),
              Range.atLeast(1),
              Importance.MEDIUM,
              "Longest a change waits in a pending batch before it is applied.")
          .define(
              FETCH_SIZE,
              Type.INT,
              VerifierSettings.DEFAULT_FETCH_SIZE,
              Range.atLeast(1),
              Importance.LOW,
              "Rows per round trip when a verifier reads its target.")
          .define(
              HASHES_TIMEOUT_MS,
              Type.LONG,
              VerifierSettings.DEFAULT_HASHES_TIMEOUT.toMillis(),
              Range.atLeast(1),
              Importance.LOW,
              "How long a CLOSE note waits for its hash records before the chunk is UNVERIFIABLE.")
          .define(
              FOLLOW_STALL_TIMEOUT_MS,
              Type.LONG,
              VerifierSettings.DEFAULT_FOLLOW_STALL_TIMEOUT.toMillis(),
              Range.atLeast(VerifierSettings.MIN_FOLLOW_STALL_TIMEOUT.toMillis()),
              Importance.MEDIUM,
              "Verify-only targets: how long the followed group's committed offset of a partition"
                  + " may stand still while a CLOSE note waits for it before the chunk is STALLED"
                  + " (less than half of streams.max.poll.interval.ms, 300000 by default).")
          .define(
              STATEMENT_TIMEOUT_MS,
              Type.LONG,
              VerifierSettings.DEFAULT_STATEMENT_TIMEOUT.toMillis(),
              Range.atLeast(1),
              Importance.MEDIUM,
              "How long one statement of a verifier on its target may run or wait for a lock"
                  + " before the target cancels it (a transient failure, retried).")
          .define(
              RETRY_TIMEOUT_MS,
              Type.LONG,
              VerifierSettings.DEFAULT_RETRY_TIMEOUT.toMillis(),
              Range.atLeast(0),
              Importance.MEDIUM,
              "How long transient target failures of one apply batch or verify (broken"
                  + " connection, statement or lock timeout, deadlock) are retried before the"
                  + " apply stops the verifier or the chunk is UNVERIFIABLE; with"
                  + " statement.timeout.ms, less than half of streams.max.poll.interval.ms.")
          .define(
              RESULTS_TOPIC,
              Type.STRING,
              null,
              Importance.LOW,
              "Topic of the chunk results (default <prefix>.compare.results).")
          .define(
              HASHES_TOPIC,
              Type.STRING,
              null,
              Importance.LOW,
              "Topic of the hash records, as the compare tasks' hashes.topic; the report counts"
                  + " noted chunks from it (default <prefix>.compare.hashes).")
          .define(
              REPORT_TOPIC,
              Type.STRING,
              null,
              Importance.LOW,
              "Topic of the report entries (default <prefix>.compare.report).")
          .define(
              ALERTS_TOPIC,
              Type.STRING,
              null,
              Importance.LOW,
              "Topic of the verifiers' and the report's alerts (default <prefix>.compare.alerts).")
          .define(
              REPORT_AGGREGATE,
              Type.BOOLEAN,
              true,
              Importance.MEDIUM,
              "Whether verify also runs an instance of the report aggregation"
                  + " (application <prefix>-compare-report; instances share the work).")
          .define(
              RESULTS_TOPIC_CHECK_MS,
              Type.LONG,
              2_000L,
              Range.between(100L, 50_000L),
              Importance.LOW,
              "How often a running verifier looks for its results topic, to create it again when"
                  + " it was deleted (below the producer's 60 s max.block.ms).")
          .define(
              SLOT_NAME,
              Type.STRING,
              null,
              Importance.LOW,
              "The capture's replication slot, shown by status (default cdc_compare_<prefix>).")
          .define(
              STATE_DIR,
              Type.STRING,
              null,
              Importance.LOW,
              "Kafka Streams state directory (default <tmp>/cdc-compare-streams).")
          .define(
              EXPLAIN_MASK,
              Type.LIST,
              List.of(),
              Importance.MEDIUM,
              "Columns that report explain and the report page show as a hash only, never as"
                  + " their value (source or target column names, any table, case ignored).")
          .define(
              CONNECT_CONNECTOR,
              Type.STRING,
              null,
              Importance.HIGH,
              "A stock pipeline: the name of the Debezium PostgreSQL connector on Kafka Connect"
                  + " that captures the source (docs/commands.md, \"Checking a pipeline you already"
                  + " run\"). Set, every target is verify-only and follows its sink connector's"
                  + " group; its topic.prefix is this file's.")
          .define(
              CONNECT_OFFSETS_TOPIC,
              Type.STRING,
              ConnectPipeline.DEFAULT_OFFSETS_TOPIC,
              Importance.MEDIUM,
              "A stock pipeline: the Kafka Connect worker's offset.storage.topic, where the"
                  + " connector's source offsets are read.")
          .define(
              CONNECT_NOTES_TOPIC,
              Type.STRING,
              null,
              Importance.LOW,
              "A stock pipeline: the connector's topic of repi.validatetables, one partition"
                  + " (default <prefix>.repi.validatetables).")
          .define(
              CONNECT_KEY_CONVERTER,
              Type.STRING,
              JSON_CONVERTER,
              Importance.MEDIUM,
              "A stock pipeline: the connector's key.converter; its settings as"
                  + " connect.key.converter.<setting> (JSON needs schemas.enable=true).")
          .define(
              CONNECT_VALUE_CONVERTER,
              Type.STRING,
              JSON_CONVERTER,
              Importance.MEDIUM,
              "A stock pipeline: the connector's value.converter; its settings as"
                  + " connect.value.converter.<setting>.");

  private final Map<String, TargetSection> targets;

  private TargetsConfig(Map<String, String> raw) {
    super(raw, new AbstractConfig(DEFINITION, withoutPrefixed(raw), false));
    this.targets = TargetSection.parse(raw, values.getList(TARGETS), tables());
    String connector = values.getString(CONNECT_CONNECTOR);
    if (connector != null && !connector.isBlank()) {
      for (TargetSection target : targets.values()) {
        if (target.mode() != TargetMode.VERIFY_ONLY) {
          String t = TARGET_PREFIX + target.name();
          throw new ConfigException(
              t
                  + ".mode is apply-verify but "
                  + CONNECT_CONNECTOR
                  + " is set: a sink connector writes each target of a stock pipeline; set "
                  + t
                  + ".mode=verify-only and "
                  + t
                  + ".follow.group=connect-<sink connector name>");
        }
      }
    }
  }

  /**
   * Every key of a targets file: what it is checked against, and what the generated reference
   * shows.
   */
  public static final FileKeys KEYS =
      FileKeys.of(
          "targets configuration",
          DEFINITION,
          PREFIXES,
          "target.<name>.",
          TargetSection.DEFINITION);

  /** Loads and checks a targets file; errors name the file and the key at fault. */
  public static TargetsConfig load(Path file) {
    return load(file, KEYS, TargetsConfig::new);
  }

  /** Checks an in-memory configuration the same way. */
  public static TargetsConfig of(Map<String, String> values) {
    return new TargetsConfig(
        ConfigFile.check(new TreeMap<>(values), DEFINITION, PREFIXES, KEYS.what()));
  }

  public List<TableName> tables() {
    return TableName.parseList(values.getString(TABLES));
  }

  /** The target names, in order. */
  public List<String> targetNames() {
    return List.copyOf(targets.keySet());
  }

  /**
   * The name of the target a command runs: {@code requested} if given, else the only target.
   *
   * @throws ConfigException naming the target when it is not in the file, or when the file has
   *     several and none was requested
   */
  public String targetName(String requested) {
    if (requested == null) {
      if (targets.size() != 1) {
        throw new ConfigException(
            "the file defines targets " + targetNames() + "; choose one with --target");
      }
      return targetNames().get(0);
    }
    if (!targets.containsKey(requested)) {
      throw new ConfigException(
          "target '" + requested + "' is not defined (the file defines " + targetNames() + ")");
    }
    return requested;
  }

  /** The settings of one target's apply+verify application. */
  public VerifierSettings verifierSettings(String target) {
    TargetSection section = targets.get(targetName(target));
    VerifierSettings.Builder builder =
        VerifierSettings.builder(section.name())
            .applicationId(section.applicationId())
            .bootstrapServers(bootstrapServers())
            .registryUrl(schemaRegistryUrl())
            .topicPrefix(topicPrefix())
            .target(section.url(), section.user(), section.password())
            .bookkeepingSchema(section.bookkeepingSchema())
            .resultsTopic(topics().results())
            .alertsTopic(topics().alerts())
            .applyBatchSize(values.getInt(APPLY_BATCH_SIZE))
            .applyMaxDelay(Duration.ofMillis(values.getLong(APPLY_MAX_DELAY_MS)))
            .fetchSize(values.getInt(FETCH_SIZE))
            .hashesTimeout(Duration.ofMillis(values.getLong(HASHES_TIMEOUT_MS)))
            .mode(section.mode())
            .followGroup(section.followGroup())
            .followStallTimeout(Duration.ofMillis(values.getLong(FOLLOW_STALL_TIMEOUT_MS)))
            .statementTimeout(Duration.ofMillis(values.getLong(STATEMENT_TIMEOUT_MS)))
            .retryTimeout(Duration.ofMillis(values.getLong(RETRY_TIMEOUT_MS)));
    for (TableName table : tables()) {
      TableName mapped = section.tables().get(table);
      if (mapped == null) {
        builder.table(table);
      } else {
        builder.table(table, mapped);
      }
    }
    streamsProperties().forEach(builder::streamsProperty);
    withPrefix(RegistryClientConfig.PREFIX)
        .forEach((key, value) -> builder.registrySetting(key, String.valueOf(value)));
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new ConfigException("target " + section.name() + ": " + e.getMessage());
    }
  }

  /** The compare's topics: the defaults under the topic prefix, or the names this file sets. */
  public CompareTopics topics() {
    return CompareTopics.configured(topicPrefix(), values::getString);
  }

  /** A reader of the report and results topics with this file's Kafka settings. */
  public ReportReader reportReader(Duration timeout) {
    return new ReportReader(reportConfig(), bootstrapServers(), withPrefix("consumer."), timeout);
  }

  /** The report aggregation's topics and application id under this topic prefix. */
  public ReportConfig reportConfig() {
    return ReportConfig.of(topicPrefix(), topics(), schemaRegistryUrl())
        .withRegistrySettings(withPrefix(RegistryClientConfig.PREFIX));
  }

  public boolean reportAggregate() {
    return values.getBoolean(REPORT_AGGREGATE);
  }

  /** How often a running verifier looks for its results topic ({@code results.topic.check.ms}). */
  public Duration resultsTopicCheck() {
    return Duration.ofMillis(values.getLong(RESULTS_TOPIC_CHECK_MS));
  }

  /** The Kafka Streams state directory of the apps this file runs. */
  public Path stateDir() {
    String dir = values.getString(STATE_DIR);
    return dir == null || dir.isBlank()
        ? Path.of(System.getProperty("java.io.tmpdir"), "cdc-compare-streams")
        : Path.of(dir);
  }

  /** The source database, when the file names one ({@code status} reads the capture slot). */
  public Optional<SourceDatabase> source() {
    return ConnectionSettings.hasSource(values)
        ? Optional.of(ConnectionSettings.source(values))
        : Optional.empty();
  }

  /** The columns shown as a hash only ({@link #EXPLAIN_MASK}), lower case. */
  public Set<String> explainMask() {
    Set<String> mask = new java.util.TreeSet<>();
    for (String column : values.getList(EXPLAIN_MASK)) {
      if (!column.isBlank()) {
        mask.add(column.strip().toLowerCase(java.util.Locale.ROOT));
      }
    }
    return mask;
  }

  /** The capture's replication slot. */
  public String slotName() {
    String slot = values.getString(SLOT_NAME);
    return slot == null || slot.isBlank() ? PipelineNames.slot(topicPrefix()) : slot;
  }

  /**
   * The stock Debezium pipeline the targets are verified against, when {@link #CONNECT_CONNECTOR}
   * is set.
   */
  public Optional<ConnectPipeline> connectPipeline() {
    String connector = values.getString(CONNECT_CONNECTOR);
    if (connector == null || connector.isBlank()) {
      return Optional.empty();
    }
    String notes = values.getString(CONNECT_NOTES_TOPIC);
    Map<String, String> converters = new LinkedHashMap<>();
    for (String side : List.of(CONNECT_KEY_CONVERTER, CONNECT_VALUE_CONVERTER)) {
      String name = side.substring(CONNECT_PREFIX.length());
      converters.put(name, values.getString(side));
      ConfigFile.withPrefix(raw, side + ".")
          .forEach((k, v) -> converters.put(name + "." + k, (String) v));
    }
    return Optional.of(
        new ConnectPipeline(
            connector.strip(),
            values.getString(CONNECT_OFFSETS_TOPIC),
            notes == null || notes.isBlank() ? topicPrefix() + "." + NoteTable.NAME : notes.strip(),
            converters));
  }

  /** The {@code streams.*} settings without their prefix. */
  public Map<String, String> streamsProperties() {
    Map<String, String> out = new LinkedHashMap<>();
    ConfigFile.withPrefix(raw, STREAMS_PREFIX).forEach((k, v) -> out.put(k, (String) v));
    return out;
  }

  private static Map<String, String> withoutPrefixed(Map<String, String> raw) {
    Map<String, String> own = new TreeMap<>(raw);
    own.keySet().retainAll(DEFINITION.names());
    return own;
  }
}
