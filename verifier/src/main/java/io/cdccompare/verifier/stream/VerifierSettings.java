package io.cdccompare.verifier.stream;

import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What one target's apply+verify application needs (docs/design.md, "Several targets": one
 * application, one consumer group, per target). Validated when built; defaults are filled in, so
 * every accessor returns the value in force. The config-file and command-line wiring lives
 * elsewhere and builds this record. Over 300 lines because every setting is checked here and has a
 * builder method.
 *
 * @param target the target's name, written into every {@code ChunkResult} ({@code [A-Za-z0-9._-]+})
 * @param applicationId the Kafka Streams {@code application.id}: consumer group, internal topic
 *     prefix, and the key of the target's checkpoints and verdicts (default {@code
 *     cdc-compare-verify-<target>})
 * @param topicPrefix the capture's {@code topic.prefix}: table topics are {@code
 *     <prefix>.<schema>.<table>}
 * @param sourceTables the source tables whose topics are applied and verified, in order
 * @param targetTables per source table the target table (default: the same schema.table; on MariaDB
 *     the schema is the database)
 * @param bookkeepingSchema schema (PostgreSQL) or database (MariaDB) of the checkpoint and verdict
 *     tables, {@code null} for the connection's current one
 * @param resultsTopic where chunk results go (default {@code <prefix>.compare.results})
 * @param alertsTopic where the verifier's stop alerts go (UNVERIFIABLE at a poison record,
 *     RESYNC_NEEDED at a gap; default {@code <prefix>.compare.alerts})
 * @param applyBatchSize changes applied in one target transaction at most (default 500)
 * @param applyMaxDelay longest a change waits in a pending batch before it is applied (default 500
 *     ms); a commit of Kafka offsets applies it earlier in any case
 * @param fetchSize rows per round trip when the verifier reads the target (default 10 000)
 * @param hashesTimeout how long a CLOSE marker waits for its hash records on the hashes topic
 *     before the chunk is UNVERIFIABLE (default 60 s)
 * @param registrySettings the targets file's {@code schema.registry.*} settings other than the URL,
 *     without the prefix (basic authentication, timeouts)
 * @param streamsProperties extra Kafka Streams (and client) properties; they may not change what
 *     the guarantees rest on (see {@link #RESERVED_PROPERTIES})
 * @param mode whether the verifier applies the changes ({@link TargetMode#APPLY_VERIFY}, the
 *     default) or another program does and the verifier follows it ({@link
 *     TargetMode#VERIFY_ONLY}); the checkpoints and verdicts are written in both
 * @param followGroup the consumer group id of the program that applies the changes to a verify-only
 *     target; required with verify-only, refused with apply-verify
 * @param followStallTimeout how long the followed group's committed offset of a partition may stand
 *     still while a CLOSE marker waits for it before the chunk is STALLED (default 60 s, at least 1
 *     s, less than half of the main consumer's {@code max.poll.interval.ms}: the stream thread is
 *     blocked while it waits, and Kafka Streams polls again only after half of it)
 * @param statementTimeout how long one statement on the target may run or wait for a lock before
 *     the target cancels it (default 30 s); a cancelled statement is a transient failure
 * @param retryTimeout how long the transient failures of one apply batch or one verify (a broken
 *     connection, a statement or lock timeout, a deadlock) are retried in place, reconnecting when
 *     needed, before an apply stops the task or a verify makes the chunk UNVERIFIABLE (default 60
 *     s); with the statement timeout, less than half of the main consumer's {@code
 *     max.poll.interval.ms}: the stream thread waits meanwhile
 */
public record VerifierSettings(
    String target,
    String applicationId,
    String bootstrapServers,
    String registryUrl,
    String topicPrefix,
    List<TableName> sourceTables,
    Map<TableName, TableName> targetTables,
    String targetJdbcUrl,
    String targetUser,
    String targetPassword,
    String bookkeepingSchema,
    String resultsTopic,
    String alertsTopic,
    int applyBatchSize,
    Duration applyMaxDelay,
    int fetchSize,
    Duration hashesTimeout,
    Map<String, String> registrySettings,
    Map<String, String> streamsProperties,
    TargetMode mode,
    String followGroup,
    Duration followStallTimeout,
    Duration statementTimeout,
    Duration retryTimeout) {

  public static final int DEFAULT_APPLY_BATCH_SIZE = 500;
  public static final Duration DEFAULT_APPLY_MAX_DELAY = Duration.ofMillis(500);
  public static final int DEFAULT_FETCH_SIZE = 10_000;
  public static final Duration DEFAULT_HASHES_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_FOLLOW_STALL_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration MIN_FOLLOW_STALL_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_RETRY_TIMEOUT = Duration.ofSeconds(60);

  /** The consumer's default {@code max.poll.interval.ms}, which Kafka Streams keeps. */
  public static final Duration DEFAULT_MAX_POLL_INTERVAL = Duration.ofMinutes(5);

  /**
   * Streams properties the application sets itself: its identity, and the settings that keep every
   * change applied (start from the earliest offset, fail on an error instead of skipping a record).
   */
  public static final Set<String> RESERVED_PROPERTIES =
      Set.of(
          "application.id",
          "bootstrap.servers",
          "auto.offset.reset",
          "consumer.auto.offset.reset",
          "main.consumer.auto.offset.reset",
          "processing.exception.handler",
          "deserialization.exception.handler",
          "default.deserialization.exception.handler");

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  public VerifierSettings {
    requireText(target, "target");
    if (!NAME.matcher(target).matches()) {
      throw new IllegalArgumentException(
          "target must be letters, digits, '.', '_' or '-', was '" + target + "'");
    }
    if (applicationId == null || applicationId.isBlank()) {
      applicationId = PipelineNames.verifierGroup(target);
    }
    if (!NAME.matcher(applicationId).matches()) {
      throw new IllegalArgumentException(
          "application.id must be letters, digits, '.', '_' or '-', was '" + applicationId + "'");
    }
    requireText(bootstrapServers, "bootstrap.servers");
    requireText(registryUrl, "schema.registry.url");
    requireText(topicPrefix, "topic.prefix");
    requireText(targetJdbcUrl, "target.url");
    if (!targetJdbcUrl.startsWith("jdbc:postgresql:")
        && !targetJdbcUrl.startsWith("jdbc:mariadb:")
        && !targetJdbcUrl.startsWith("jdbc:mysql:")) {
      throw new IllegalArgumentException(
          "target.url must be a jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql: URL, was '"
              + targetJdbcUrl.split("\\?")[0]
              + "'");
    }
    targetUser = targetUser == null ? "" : targetUser;
    targetPassword = targetPassword == null ? "" : targetPassword;
    if (bookkeepingSchema != null && bookkeepingSchema.isBlank()) {
      bookkeepingSchema = null;
    }
    if (sourceTables == null || sourceTables.isEmpty()) {
      throw new IllegalArgumentException("tables must name at least one source table");
    }
    sourceTables = List.copyOf(sourceTables);
    if (Set.copyOf(sourceTables).size() != sourceTables.size()) {
      throw new IllegalArgumentException("tables lists a table twice: " + sourceTables);
    }
    Map<TableName, TableName> targets = new LinkedHashMap<>();
    Map<TableName, TableName> given = targetTables == null ? Map.of() : targetTables;
    for (TableName unknown : given.keySet()) {
      if (!sourceTables.contains(unknown)) {
        throw new IllegalArgumentException(
            "table." + unknown + ".target.table names a table that is not in tables");
      }
    }
    Map<String, TableName> topics = new HashMap<>();
    for (TableName source : sourceTables) {
      targets.put(source, given.getOrDefault(source, source));
      TableName clash = topics.put(TableTopics.topicName(topicPrefix, source), source);
      if (clash != null) {
        throw new IllegalArgumentException(
            "tables " + clash + " and " + source + " share one topic; they cannot both be applied");
      }
    }
    if (Set.copyOf(targets.values()).size() != targets.size()) {
      throw new IllegalArgumentException(
          "two source tables are applied to one target table: " + targets);
    }
    targetTables = java.util.Collections.unmodifiableMap(targets);
    CompareTopics named =
        CompareTopics.defaults(topicPrefix).with(null, resultsTopic, null, alertsTopic);
    resultsTopic = named.results();
    alertsTopic = named.alerts();
    if (applyBatchSize <= 0) {
      throw new IllegalArgumentException(
          "apply.batch.size must be positive, was " + applyBatchSize);
    }
    applyMaxDelay = applyMaxDelay == null ? DEFAULT_APPLY_MAX_DELAY : applyMaxDelay;
    if (applyMaxDelay.isNegative() || applyMaxDelay.isZero()) {
      throw new IllegalArgumentException("apply.max.delay must be positive, was " + applyMaxDelay);
    }
    if (fetchSize <= 0) {
      throw new IllegalArgumentException("fetch.size must be positive, was " + fetchSize);
    }
    hashesTimeout = hashesTimeout == null ? DEFAULT_HASHES_TIMEOUT : hashesTimeout;
    if (hashesTimeout.isNegative() || hashesTimeout.isZero()) {
      throw new IllegalArgumentException("hashes.timeout must be positive, was " + hashesTimeout);
    }
    streamsProperties = streamsProperties == null ? Map.of() : Map.copyOf(streamsProperties);
    registrySettings = registrySettings == null ? Map.of() : Map.copyOf(registrySettings);
    for (String key : streamsProperties.keySet()) {
      if (RESERVED_PROPERTIES.contains(key)) {
        throw new IllegalArgumentException(
            "streams property "
                + key
                + " is set by the verifier and may not be overridden (the apply relies on it)");
      }
    }
    mode = mode == null ? TargetMode.APPLY_VERIFY : mode;
    if (followGroup != null && followGroup.isBlank()) {
      followGroup = null;
    }
    String modeKey = "target." + target + ".mode";
    String groupKey = "target." + target + ".follow.group";
    if (mode == TargetMode.VERIFY_ONLY && followGroup == null) {
      throw new IllegalArgumentException(
          groupKey
              + " is required when "
              + modeKey
              + " is verify-only: the consumer group id of the program that applies the"
              + " changes to the target");
    }
    if (mode == TargetMode.APPLY_VERIFY && followGroup != null) {
      throw new IllegalArgumentException(
          groupKey + " is set but " + modeKey + " is apply-verify: set mode=verify-only");
    }
    if (followGroup != null && followGroup.equals(applicationId)) {
      throw new IllegalArgumentException(
          groupKey
              + " is the verifier's own application.id "
              + applicationId
              + ": it must name the group of the program that applies the changes");
    }
    followStallTimeout =
        followStallTimeout == null ? DEFAULT_FOLLOW_STALL_TIMEOUT : followStallTimeout;
    if (followStallTimeout.compareTo(MIN_FOLLOW_STALL_TIMEOUT) < 0) {
      throw new IllegalArgumentException(
          "follow.stall.timeout.ms must be at least 1000, was " + followStallTimeout.toMillis());
    }
    Duration maxPoll = maxPollInterval(streamsProperties);
    if (mode == TargetMode.VERIFY_ONLY && followStallTimeout.compareTo(maxPoll.dividedBy(2)) >= 0) {
      throw new IllegalArgumentException(
          "follow.stall.timeout.ms must be less than half of the verifier's"
              + " max.poll.interval.ms ("
              + maxPoll.toMillis()
              + "), was "
              + followStallTimeout.toMillis()
              + ": a CLOSE marker waits on the stream thread, and Kafka Streams polls again only"
              + " after half of max.poll.interval.ms (raise streams.max.poll.interval.ms or lower"
              + " the timeout)");
    }
    statementTimeout = statementTimeout == null ? DEFAULT_STATEMENT_TIMEOUT : statementTimeout;
    if (statementTimeout.isNegative() || statementTimeout.isZero()) {
      throw new IllegalArgumentException(
          "statement.timeout.ms must be positive, was " + statementTimeout.toMillis());
    }
    retryTimeout = retryTimeout == null ? DEFAULT_RETRY_TIMEOUT : retryTimeout;
    if (retryTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "retry.timeout.ms must be 0 or more, was " + retryTimeout.toMillis());
    }
    if (statementTimeout.plus(retryTimeout).compareTo(maxPoll.dividedBy(2)) >= 0) {
      throw new IllegalArgumentException(
          "retry.timeout.ms ("
              + retryTimeout.toMillis()
              + ") plus statement.timeout.ms ("
              + statementTimeout.toMillis()
              + ") must be less than half of the verifier's max.poll.interval.ms ("
              + maxPoll.toMillis()
              + "): a retried apply or verify waits on the stream thread, and Kafka Streams polls"
              + " again only after half of max.poll.interval.ms (raise"
              + " streams.max.poll.interval.ms or lower the timeouts)");
    }
  }

  /**
   * The settings of a client of the verifier's own (not one of Kafka Streams'): the {@code
   * streams.*} keys under {@code prefix} (e.g. {@code consumer.}) with the prefix taken off, the
   * connection's {@code security.*}, {@code sasl.*} and {@code ssl.*} keys, and the bootstrap
   * servers.
   */
  public Map<String, Object> clientSettings(String prefix) {
    Map<String, Object> config = new HashMap<>();
    streamsProperties.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            config.put(key.substring(prefix.length()), value);
          } else if (key.startsWith("security.")
              || key.startsWith("sasl.")
              || key.startsWith("ssl.")) {
            config.put(key, value);
          }
        });
    config.put("bootstrap.servers", bootstrapServers);
    return config;
  }

  /** True when another program applies the changes and the verifier only verifies. */
  public boolean verifyOnly() {
    return mode == TargetMode.VERIFY_ONLY;
  }

  /**
   * The main consumer's {@code max.poll.interval.ms} in force: {@code main.consumer.}, then {@code
   * consumer.}, then the unprefixed streams property, else the consumer's default (5 minutes).
   */
  public Duration maxPollInterval() {
    return maxPollInterval(streamsProperties);
  }

  /**
   * The longest a CLOSE marker of a verify-only target waits on the stream thread, however the
   * followed group moves: 45 % of {@link #maxPollInterval()}, below the half after which Kafka
   * Streams polls again (135 s by default).
   */
  public Duration followWaitLimit() {
    return maxPollInterval().multipliedBy(9).dividedBy(20);
  }

  private static Duration maxPollInterval(Map<String, String> streamsProperties) {
    for (String key :
        List.of(
            "main.consumer.max.poll.interval.ms",
            "consumer.max.poll.interval.ms",
            "max.poll.interval.ms")) {
      String value = streamsProperties.get(key);
      if (value != null) {
        try {
          return Duration.ofMillis(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "streams." + key + " must be a number of milliseconds, was '" + value + "'");
        }
      }
    }
    return DEFAULT_MAX_POLL_INTERVAL;
  }

  /** A builder with every default; the target, the connections and the tables are required. */
  public static Builder builder(String target) {
    return new Builder(target);
  }

  /** The topic of a source table. */
  public String topicOf(TableName source) {
    return TableTopics.topicName(topicPrefix, source);
  }

  /** Every table topic, in the order of {@link #sourceTables()}. */
  public List<String> topics() {
    List<String> topics = new ArrayList<>(sourceTables.size());
    sourceTables.forEach(t -> topics.add(topicOf(t)));
    return topics;
  }

  /** The target table of a source table. */
  public TableName targetTableOf(TableName source) {
    TableName target = targetTables.get(source);
    if (target == null) {
      throw new IllegalArgumentException("table " + source + " is not applied by " + this.target);
    }
    return target;
  }

  /**
   * {@code target <name> at <url> as <user>}, the URL without its parameters (they may hold
   * credentials): how messages about this target name it.
   */
  public String targetDescription() {
    return "target " + target + " at " + targetJdbcUrl.split("\\?")[0] + " as " + targetUser;
  }

  /** The password is never shown. */
  @Override
  public String toString() {
    return "VerifierSettings[target="
        + target
        + ", applicationId="
        + applicationId
        + ", bootstrapServers="
        + bootstrapServers
        + ", registryUrl="
        + registryUrl
        + ", topicPrefix="
        + topicPrefix
        + ", targetTables="
        + targetTables
        + ", targetJdbcUrl="
        + targetJdbcUrl.split("\\?")[0]
        + ", targetUser="
        + targetUser
        + ", bookkeepingSchema="
        + bookkeepingSchema
        + ", resultsTopic="
        + resultsTopic
        + ", alertsTopic="
        + alertsTopic
        + ", applyBatchSize="
        + applyBatchSize
        + ", applyMaxDelay="
        + applyMaxDelay
        + ", fetchSize="
        + fetchSize
        + ", hashesTimeout="
        + hashesTimeout
        + ", streamsProperties="
        + streamsProperties.keySet()
        + ", mode="
        + mode
        + ", followGroup="
        + followGroup
        + ", followStallTimeout="
        + followStallTimeout
        + ", statementTimeout="
        + statementTimeout
        + ", retryTimeout="
        + retryTimeout
        + "]";
  }

  private static void requireText(String value, String key) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(key + " is required");
    }
  }

  /** Builds {@link VerifierSettings}; unset values take their defaults. Not thread-safe. */
  public static final class Builder {
    private final String target;
    private String applicationId;
    private String bootstrapServers;
    private String registryUrl;
    private String topicPrefix;
    private final List<TableName> sourceTables = new ArrayList<>();
    private final Map<TableName, TableName> targetTables = new LinkedHashMap<>();
    private String targetJdbcUrl;
    private String targetUser;
    private String targetPassword;
    private String bookkeepingSchema;
    private String resultsTopic;
    private String alertsTopic;
    private int applyBatchSize = DEFAULT_APPLY_BATCH_SIZE;
    private Duration applyMaxDelay = DEFAULT_APPLY_MAX_DELAY;
    private int fetchSize = DEFAULT_FETCH_SIZE;
    private Duration hashesTimeout = DEFAULT_HASHES_TIMEOUT;
    private final Map<String, String> registrySettings = new TreeMap<>();
    private final Map<String, String> streamsProperties = new HashMap<>();
    private TargetMode mode = TargetMode.APPLY_VERIFY;
    private String followGroup;
    private Duration followStallTimeout = DEFAULT_FOLLOW_STALL_TIMEOUT;
    private Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;
    private Duration retryTimeout = DEFAULT_RETRY_TIMEOUT;

    private Builder(String target) {
      this.target = target;
    }

    public Builder applicationId(String applicationId) {
      this.applicationId = applicationId;
      return this;
    }

    public Builder bootstrapServers(String bootstrapServers) {
      this.bootstrapServers = bootstrapServers;
      return this;
    }

    public Builder registryUrl(String registryUrl) {
      this.registryUrl = registryUrl;
      return this;
    }

    public Builder topicPrefix(String topicPrefix) {
      this.topicPrefix = topicPrefix;
      return this;
    }

    /** A source table applied to the target table of the same schema.table. */
    public Builder table(TableName source) {
      sourceTables.add(source);
      return this;
    }

    /** A source table applied to another target table. */
    public Builder table(TableName source, TableName target) {
      sourceTables.add(source);
      targetTables.put(source, target);
      return this;
    }

    public Builder target(String jdbcUrl, String user, String password) {
      this.targetJdbcUrl = jdbcUrl;
      this.targetUser = user;
      this.targetPassword = password;
      return this;
    }

    public Builder bookkeepingSchema(String bookkeepingSchema) {
      this.bookkeepingSchema = bookkeepingSchema;
      return this;
    }

    public Builder resultsTopic(String resultsTopic) {
      this.resultsTopic = resultsTopic;
      return this;
    }

    public Builder alertsTopic(String alertsTopic) {
      this.alertsTopic = alertsTopic;
      return this;
    }

    public Builder applyBatchSize(int applyBatchSize) {
      this.applyBatchSize = applyBatchSize;
      return this;
    }

    public Builder applyMaxDelay(Duration applyMaxDelay) {
      this.applyMaxDelay = applyMaxDelay;
      return this;
    }

    public Builder fetchSize(int fetchSize) {
      this.fetchSize = fetchSize;
      return this;
    }

    public Builder hashesTimeout(Duration hashesTimeout) {
      this.hashesTimeout = hashesTimeout;
      return this;
    }

    /** A {@code schema.registry.*} setting, its key without the prefix. */
    public Builder registrySetting(String key, String value) {
      if (!key.equals("url")) {
        registrySettings.put(key, value);
      }
      return this;
    }

    public Builder streamsProperty(String key, String value) {
      streamsProperties.put(key, value);
      return this;
    }

    public Builder mode(TargetMode mode) {
      this.mode = mode;
      return this;
    }

    /** Verify-only, following the consumer group {@code groupId}. */
    public Builder verifyOnly(String groupId) {
      this.mode = TargetMode.VERIFY_ONLY;
      this.followGroup = groupId;
      return this;
    }

    public Builder followGroup(String followGroup) {
      this.followGroup = followGroup;
      return this;
    }

    public Builder followStallTimeout(Duration followStallTimeout) {
      this.followStallTimeout = followStallTimeout;
      return this;
    }

    public Builder statementTimeout(Duration statementTimeout) {
      this.statementTimeout = statementTimeout;
      return this;
    }

    public Builder retryTimeout(Duration retryTimeout) {
      this.retryTimeout = retryTimeout;
      return this;
    }

    public VerifierSettings build() {
      return new VerifierSettings(
          target,
          applicationId,
          bootstrapServers,
          registryUrl,
          topicPrefix,
          sourceTables,
          targetTables,
          targetJdbcUrl,
          targetUser,
          targetPassword,
          bookkeepingSchema,
          resultsTopic,
          alertsTopic,
          applyBatchSize,
          applyMaxDelay,
          fetchSize,
          hashesTimeout,
          registrySettings,
          streamsProperties,
          mode,
          followGroup,
          followStallTimeout,
          statementTimeout,
          retryTimeout);
    }
  }
}
