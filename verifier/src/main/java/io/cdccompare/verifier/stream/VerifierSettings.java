package io.cdccompare.verifier.stream;

import io.cdccompare.core.stream.CompareTopics;
import io.cdccompare.core.stream.PipelineNames;
import io.cdccompare.core.table.TableName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What one target's apply+verify application needs (docs/design.md, "Several targets": one
 * application, one consumer group, per target), as a small tree of records: the target's name and
 * application id, then one record per concern, each validated when built, with its defaults filled
 * in, so every accessor returns the value in force. This record checks only what ties two of them
 * together (the waits on the stream thread against {@code max.poll.interval.ms}, the followed group
 * against the application id). Messages name the settings by their keys in this tree ({@code
 * apply.batch.size}, {@code follow.group}); the targets file, which spells them {@code
 * target.<name>.*}, checks its own keys first. Built with {@link #builder}.
 *
 * @param target the target's name, written into every {@code ChunkResult} ({@code [A-Za-z0-9._-]+})
 * @param applicationId the Kafka Streams {@code application.id}: consumer group, internal topic
 *     prefix, and the key of the target's checkpoints and verdicts (default {@code
 *     cdc-compare-verify-<target>})
 * @param kafka the broker, the registry and the Kafka Streams properties
 * @param tables the tables applied and verified, their topics and the topics written
 * @param database the target database and where its bookkeeping tables live
 * @param apply how changes are batched into target transactions
 * @param verify how a chunk is read on the target
 * @param follow whether the verifier applies the changes or follows another program that does
 * @param retries how long a statement may run and transient failures are retried
 */
public record VerifierSettings(
    String target,
    String applicationId,
    Kafka kafka,
    Tables tables,
    TargetDatabase database,
    Apply apply,
    Verify verify,
    Follow follow,
    Retries retries) {

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
    applicationId = applicationId(target, applicationId);
    for (Object part : new Object[] {kafka, tables, database, apply, verify, follow, retries}) {
      if (part == null) {
        throw new IllegalArgumentException("every part of the verifier's settings is required");
      }
    }
    if (follow.group() != null && follow.group().equals(applicationId)) {
      throw new IllegalArgumentException(
          "follow.group is the verifier's own application.id "
              + applicationId
              + ": it must name the group of the program that applies the changes");
    }
    Duration maxPoll = kafka.maxPollInterval();
    if (follow.verifyOnly() && follow.stallTimeout().compareTo(maxPoll.dividedBy(2)) >= 0) {
      throw new IllegalArgumentException(
          "follow.stall.timeout.ms must be less than half of the verifier's"
              + " max.poll.interval.ms ("
              + maxPoll.toMillis()
              + "), was "
              + follow.stallTimeout().toMillis()
              + ": a CLOSE marker waits on the stream thread, and Kafka Streams polls again only"
              + " after half of max.poll.interval.ms (raise streams.max.poll.interval.ms or lower"
              + " the timeout)");
    }
    if (retries.statementTimeout().plus(retries.retryTimeout()).compareTo(maxPoll.dividedBy(2))
        >= 0) {
      throw new IllegalArgumentException(
          "retry.timeout.ms ("
              + retries.retryTimeout().toMillis()
              + ") plus statement.timeout.ms ("
              + retries.statementTimeout().toMillis()
              + ") must be less than half of the verifier's max.poll.interval.ms ("
              + maxPoll.toMillis()
              + "): a retried apply or verify waits on the stream thread, and Kafka Streams polls"
              + " again only after half of max.poll.interval.ms (raise"
              + " streams.max.poll.interval.ms or lower the timeouts)");
    }
  }

  /**
   * The broker, the registry and the Kafka Streams properties.
   *
   * @param bootstrapServers the Kafka bootstrap servers
   * @param registryUrl the schema registry's URL
   * @param registrySettings the targets file's {@code schema.registry.*} settings other than the
   *     URL, without the prefix (basic authentication, timeouts)
   * @param streamsProperties extra Kafka Streams (and client) properties; they may not change what
   *     the guarantees rest on (see {@link #RESERVED_PROPERTIES})
   */
  public record Kafka(
      String bootstrapServers,
      String registryUrl,
      Map<String, String> registrySettings,
      Map<String, String> streamsProperties) {
    public Kafka {
      requireText(bootstrapServers, "bootstrap.servers");
      requireText(registryUrl, "schema.registry.url");
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
      maxPollInterval(streamsProperties);
    }

    /**
     * The main consumer's {@code max.poll.interval.ms} in force: {@code main.consumer.}, then
     * {@code consumer.}, then the unprefixed streams property, else the consumer's default (5
     * minutes).
     */
    public Duration maxPollInterval() {
      return maxPollInterval(streamsProperties);
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
  }

  /**
   * The tables applied and verified, their topics and the topics the verifier writes.
   *
   * @param topicPrefix the capture's {@code topic.prefix}: table topics are {@code
   *     <prefix>.<schema>.<table>}
   * @param sourceTables the source tables whose topics are applied and verified, in order
   * @param targetTables per source table the target table (default: the same schema.table; on
   *     MariaDB the schema is the database)
   * @param resultsTopic where chunk results go (default {@code <prefix>.compare.results})
   * @param alertsTopic where the verifier's stop alerts go (UNVERIFIABLE at a poison record,
   *     RESYNC_NEEDED at a gap; default {@code <prefix>.compare.alerts})
   */
  public record Tables(
      String topicPrefix,
      List<TableName> sourceTables,
      Map<TableName, TableName> targetTables,
      String resultsTopic,
      String alertsTopic) {
    public Tables {
      requireText(topicPrefix, "topic.prefix");
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
              "tables "
                  + clash
                  + " and "
                  + source
                  + " share one topic; they cannot both be applied");
        }
      }
      if (Set.copyOf(targets.values()).size() != targets.size()) {
        throw new IllegalArgumentException(
            "two source tables are applied to one target table: " + targets);
      }
      targetTables = Collections.unmodifiableMap(targets);
      CompareTopics named =
          CompareTopics.defaults(topicPrefix).with(null, resultsTopic, null, alertsTopic);
      resultsTopic = named.results();
      alertsTopic = named.alerts();
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
  }

  /**
   * The target database. The password is never shown.
   *
   * @param jdbcUrl a {@code jdbc:postgresql:}, {@code jdbc:mariadb:} or {@code jdbc:mysql:} URL
   * @param user the user, {@code ""} when the URL or the driver supplies it
   * @param password the password, {@code ""} when none
   * @param bookkeepingSchema schema (PostgreSQL) or database (MariaDB) of the checkpoint and
   *     verdict tables, {@code null} for the connection's current one
   */
  public record TargetDatabase(
      String jdbcUrl, String user, String password, String bookkeepingSchema) {
    public TargetDatabase {
      requireText(jdbcUrl, "target.url");
      if (!jdbcUrl.startsWith("jdbc:postgresql:")
          && !jdbcUrl.startsWith("jdbc:mariadb:")
          && !jdbcUrl.startsWith("jdbc:mysql:")) {
        throw new IllegalArgumentException(
            "target.url must be a jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql: URL, was '"
                + withoutParameters(jdbcUrl)
                + "'");
      }
      user = user == null ? "" : user;
      password = password == null ? "" : password;
      if (bookkeepingSchema != null && bookkeepingSchema.isBlank()) {
        bookkeepingSchema = null;
      }
    }

    /** The URL without its parameters (they may hold credentials). */
    public String shownUrl() {
      return withoutParameters(jdbcUrl);
    }

    @Override
    public String toString() {
      return "TargetDatabase[url="
          + shownUrl()
          + ", user="
          + user
          + ", bookkeepingSchema="
          + bookkeepingSchema
          + "]";
    }

    private static String withoutParameters(String url) {
      return url.split("\\?")[0];
    }
  }

  /**
   * How changes are batched into target transactions.
   *
   * @param batchSize changes applied in one target transaction at most (default 500)
   * @param maxDelay longest a change waits in a pending batch before it is applied (default 500
   *     ms); a commit of Kafka offsets applies it earlier in any case
   */
  public record Apply(int batchSize, Duration maxDelay) {
    public Apply {
      if (batchSize <= 0) {
        throw new IllegalArgumentException("apply.batch.size must be positive, was " + batchSize);
      }
      maxDelay = maxDelay == null ? DEFAULT_APPLY_MAX_DELAY : maxDelay;
      if (maxDelay.isNegative() || maxDelay.isZero()) {
        throw new IllegalArgumentException("apply.max.delay must be positive, was " + maxDelay);
      }
    }
  }

  /**
   * How a chunk is read on the target.
   *
   * @param fetchSize rows per round trip when the verifier reads the target (default 10 000)
   * @param hashesTimeout how long a CLOSE marker waits for its hash records on the hashes topic
   *     before the chunk is UNVERIFIABLE (default 60 s)
   */
  public record Verify(int fetchSize, Duration hashesTimeout) {
    public Verify {
      if (fetchSize <= 0) {
        throw new IllegalArgumentException("fetch.size must be positive, was " + fetchSize);
      }
      hashesTimeout = hashesTimeout == null ? DEFAULT_HASHES_TIMEOUT : hashesTimeout;
      if (hashesTimeout.isNegative() || hashesTimeout.isZero()) {
        throw new IllegalArgumentException("hashes.timeout must be positive, was " + hashesTimeout);
      }
    }
  }

  /**
   * Whether the verifier applies the changes or follows another program that does.
   *
   * @param mode {@link TargetMode#APPLY_VERIFY} (the default) or {@link TargetMode#VERIFY_ONLY};
   *     the checkpoints and verdicts are written in both
   * @param group the consumer group id of the program that applies the changes to a verify-only
   *     target; required with verify-only, refused with apply-verify
   * @param stallTimeout how long the followed group's committed offset of a partition may stand
   *     still while a CLOSE marker waits for it before the chunk is STALLED (default 60 s, at least
   *     1 s, less than half of the main consumer's {@code max.poll.interval.ms}: the stream thread
   *     is blocked while it waits, and Kafka Streams polls again only after half of it)
   */
  public record Follow(TargetMode mode, String group, Duration stallTimeout) {
    public Follow {
      mode = mode == null ? TargetMode.APPLY_VERIFY : mode;
      if (group != null && group.isBlank()) {
        group = null;
      }
      if (mode == TargetMode.VERIFY_ONLY && group == null) {
        throw new IllegalArgumentException(
            "follow.group is required when mode is verify-only: the consumer group id of the"
                + " program that applies the changes to the target");
      }
      if (mode == TargetMode.APPLY_VERIFY && group != null) {
        throw new IllegalArgumentException(
            "follow.group is set but mode is apply-verify: set mode=verify-only");
      }
      stallTimeout = stallTimeout == null ? DEFAULT_FOLLOW_STALL_TIMEOUT : stallTimeout;
      if (stallTimeout.compareTo(MIN_FOLLOW_STALL_TIMEOUT) < 0) {
        throw new IllegalArgumentException(
            "follow.stall.timeout.ms must be at least 1000, was " + stallTimeout.toMillis());
      }
    }

    /** True when another program applies the changes and the verifier only verifies. */
    public boolean verifyOnly() {
      return mode == TargetMode.VERIFY_ONLY;
    }
  }

  /**
   * How long a statement may run and transient failures are retried.
   *
   * @param statementTimeout how long one statement on the target may run or wait for a lock before
   *     the target cancels it (default 30 s); a cancelled statement is a transient failure
   * @param retryTimeout how long the transient failures of one apply batch or one verify (a broken
   *     connection, a statement or lock timeout, a deadlock) are retried in place, reconnecting
   *     when needed, before an apply stops the task or a verify makes the chunk UNVERIFIABLE
   *     (default 60 s); with the statement timeout, less than half of the main consumer's {@code
   *     max.poll.interval.ms}: the stream thread waits meanwhile
   */
  public record Retries(Duration statementTimeout, Duration retryTimeout) {
    public Retries {
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
    }
  }

  /** True when another program applies the changes and the verifier only verifies. */
  public boolean verifyOnly() {
    return follow.verifyOnly();
  }

  /** The main consumer's {@code max.poll.interval.ms} in force ({@link Kafka#maxPollInterval}). */
  public Duration maxPollInterval() {
    return kafka.maxPollInterval();
  }

  /**
   * The longest a CLOSE marker of a verify-only target waits on the stream thread, however the
   * followed group moves: 45 % of {@link #maxPollInterval()}, below the half after which Kafka
   * Streams polls again (135 s by default).
   */
  public Duration followWaitLimit() {
    return maxPollInterval().multipliedBy(9).dividedBy(20);
  }

  /** A builder with every default; the target, the connections and the tables are required. */
  public static Builder builder(String target) {
    return new Builder(target);
  }

  /** The target table of a source table. */
  public TableName targetTableOf(TableName source) {
    TableName table = tables.targetTables().get(source);
    if (table == null) {
      throw new IllegalArgumentException("table " + source + " is not applied by " + target);
    }
    return table;
  }

  /**
   * {@code target <name> at <url> as <user>}, the URL without its parameters (they may hold
   * credentials): how messages about this target name it.
   */
  public String targetDescription() {
    return "target " + target + " at " + database.shownUrl() + " as " + database.user();
  }

  /** The password is never shown. */
  @Override
  public String toString() {
    return "VerifierSettings[target="
        + target
        + ", applicationId="
        + applicationId
        + ", "
        + kafka.bootstrapServers()
        + ", registry "
        + kafka.registryUrl()
        + ", streams properties "
        + kafka.streamsProperties().keySet()
        + ", "
        + tables
        + ", "
        + database
        + ", "
        + apply
        + ", "
        + verify
        + ", "
        + follow
        + ", "
        + retries
        + "]";
  }

  /** The application id in force, after the target's name and the id given are checked. */
  private static String applicationId(String target, String applicationId) {
    requireText(target, "target");
    if (!NAME.matcher(target).matches()) {
      throw new IllegalArgumentException(
          "target must be letters, digits, '.', '_' or '-', was '" + target + "'");
    }
    String id =
        applicationId == null || applicationId.isBlank()
            ? PipelineNames.verifierGroup(target)
            : applicationId;
    if (!NAME.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "application.id must be letters, digits, '.', '_' or '-', was '" + id + "'");
    }
    return id;
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
      String id = VerifierSettings.applicationId(target, applicationId); // refused first
      return new VerifierSettings(
          target,
          id,
          new Kafka(bootstrapServers, registryUrl, registrySettings, streamsProperties),
          new Tables(topicPrefix, sourceTables, targetTables, resultsTopic, alertsTopic),
          new TargetDatabase(targetJdbcUrl, targetUser, targetPassword, bookkeepingSchema),
          new Apply(applyBatchSize, applyMaxDelay),
          new Verify(fetchSize, hashesTimeout),
          new Follow(mode, followGroup, followStallTimeout),
          new Retries(statementTimeout, retryTimeout));
    }
  }
}
