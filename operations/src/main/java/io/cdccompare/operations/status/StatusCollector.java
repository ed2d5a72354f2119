package io.cdccompare.operations.status;

import io.cdccompare.config.ConnectionSettings.SourceDatabase;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.status.CheckpointReader.Checkpoints;
import io.cdccompare.verifier.stream.VerifierSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every part of the status of a targets file: the capture's slot, each target's checkpoints,
 * the table topics' offsets with the verifiers' group offsets (and those of the groups verify-only
 * targets follow), and the report, all at once; then the oldest unapplied records' timestamps.
 * Every read is bounded by the timeout (the clients' own timeouts, and a wait on each read's
 * thread); a part that fails or does not answer in time is UNREACHABLE with its one-line reason,
 * and every other part is still read.
 */
public final class StatusCollector {
  private static final Logger LOG = LoggerFactory.getLogger(StatusCollector.class);

  /** Beyond the timeout, how long a read's thread may take to give up on its own. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private final TargetsConfig config;
  private final Duration timeout;
  private final Clock clock;

  /**
   * @param timeout longest any one remote read may take
   * @param clock the time ages are measured at
   */
  public StatusCollector(TargetsConfig config, Duration timeout, Clock clock) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the timeout must be positive, was " + timeout);
    }
    this.config = config;
    this.timeout = timeout;
    this.clock = clock;
  }

  public StatusReport collect() {
    ExecutorService pool = Executors.newCachedThreadPool(daemonThreads());
    try {
      return collect(pool);
    } finally {
      pool.shutdownNow();
    }
  }

  private StatusReport collect(ExecutorService pool) {
    List<VerifierSettings> targets = new ArrayList<>();
    config.targetNames().forEach(name -> targets.add(config.verifierSettings(name)));
    Set<String> topics = new LinkedHashSet<>();
    Set<String> groups = new LinkedHashSet<>();
    Map<String, String> followed = new HashMap<>();
    targets.forEach(
        t -> {
          topics.addAll(t.tables().topics());
          groups.add(t.applicationId());
          FollowedGroup.of(config, t.target()).ifPresent(g -> followed.put(t.target(), g));
        });
    groups.addAll(followed.values());

    Optional<SourceDatabase> source = config.source();
    Future<CaptureStatus> slot =
        source
            .map(s -> pool.submit(new SlotReader(s, config.slotName(), timeout)::read))
            .orElse(null);
    Future<CompareStatus> compares =
        pool.submit(
            new CompareReader(
                    config.reportConfig(),
                    config.bootstrapServers(),
                    admin(),
                    config.withPrefix("consumer."),
                    timeout)
                ::read);
    // group offsets, then checkpoints, then end offsets: each read after the one it is compared
    // with, so a live verifier never shows a group ahead of its checkpoint or a checkpoint past
    // the end
    // the ages are measured at the start of the reads: the time the positions describe
    Instant readAt = clock.instant();
    Outcome<TopicOffsetsReader.Groups> groupOffsets;
    Map<String, Outcome<Checkpoints>> applied = new LinkedHashMap<>();
    Outcome<TopicOffsets> kafka;
    try (TopicOffsetsReader kafkaReader = new TopicOffsetsReader(admin(), timeout)) {
      groupOffsets =
          await(pool.submit(() -> kafkaReader.readGroups(List.copyOf(groups))), deadline());
      Map<String, Future<Checkpoints>> checkpoints = new LinkedHashMap<>();
      targets.forEach(
          t -> checkpoints.put(t.target(), pool.submit(new CheckpointReader(t, timeout)::read)));
      Instant checkpointsRead = deadline();
      checkpoints.forEach((name, f) -> applied.put(name, await(f, checkpointsRead)));
      Outcome<TopicOffsetsReader.Groups> read = groupOffsets;
      kafka =
          read.ok()
              ? await(pool.submit(() -> kafkaReader.read(topics, read.value())), deadline())
              : new Outcome<>(null, read.failure());
    }
    Instant othersRead = deadline();
    CaptureStatus capture =
        slot == null ? null : capture(await(slot, othersRead), source.get().jdbcUrl());
    Outcome<CompareStatus> report = await(compares, othersRead);
    Outcome<Map<PartitionOffset, Instant>> ages =
        kafka.ok()
            ? oldestTimestamps(pool, targets, applied, kafka.value())
            : new Outcome<>(Map.of(), null);

    List<TargetStatus> statuses = new ArrayList<>();
    for (VerifierSettings t : targets) {
      Outcome<Checkpoints> read = applied.get(t.target());
      statuses.add(
          read.ok()
              ? TargetLag.status(
                  t,
                  followed.get(t.target()),
                  read.value(),
                  kafka.value(),
                  ages.ok() ? ages.value() : Map.of(),
                  ages.failure(),
                  readAt)
              : TargetStatus.unreachable(
                  t.target(),
                  t.applicationId(),
                  JdbcTimeouts.display(t.database().jdbcUrl()),
                  read.failure()));
    }
    return new StatusReport(
        config.topicPrefix(),
        readAt.truncatedTo(ChronoUnit.MILLIS),
        config.bootstrapServers(),
        capture,
        kafka.failure(),
        statuses,
        report.ok()
            ? report.value()
            : CompareStatus.unreachable(config.reportConfig().reportTopic(), report.failure()));
  }

  private CaptureStatus capture(Outcome<CaptureStatus> read, String sourceUrl) {
    return read.ok()
        ? read.value()
        : CaptureStatus.unreachable(config.slotName(), sourceUrl, read.failure());
  }

  /**
   * The timestamps of the oldest unapplied record of every lagging partition of every target whose
   * checkpoints were read: the second step, once checkpoints and end offsets are known.
   */
  private Outcome<Map<PartitionOffset, Instant>> oldestTimestamps(
      ExecutorService pool,
      List<VerifierSettings> targets,
      Map<String, Outcome<Checkpoints>> applied,
      TopicOffsets offsets) {
    Set<PartitionOffset> wanted = new LinkedHashSet<>();
    for (VerifierSettings t : targets) {
      Outcome<Checkpoints> read = applied.get(t.target());
      if (read.ok()) {
        wanted.addAll(TargetLag.oldestUnapplied(t, read.value(), offsets));
      }
    }
    Map<TopicPartition, Long> end = new HashMap<>();
    offsets.partitions().forEach((p, range) -> end.put(p, range.end()));
    return await(
        pool.submit(() -> new RecordTimestampReader(consumer(), timeout).read(wanted, end)),
        deadline());
  }

  private Map<String, Object> admin() {
    Map<String, Object> props = new HashMap<>(config.withPrefix("admin."));
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return props;
  }

  private Map<String, Object> consumer() {
    Map<String, Object> props = new HashMap<>(config.withPrefix("consumer."));
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return props;
  }

  /** A read's value, or the one line that says why there is none. */
  private record Outcome<T>(T value, String failure) {
    boolean ok() {
      return failure == null;
    }
  }

  /** The end of one step of reads that run at the same time. */
  private Instant deadline() {
    return clock.instant().plus(timeout).plus(GRACE);
  }

  private <T> Outcome<T> await(Future<T> future, Instant deadline) {
    long left = Math.max(0, Duration.between(clock.instant(), deadline).toMillis());
    try {
      return new Outcome<>(future.get(left, TimeUnit.MILLISECONDS), null);
    } catch (TimeoutException e) {
      future.cancel(true);
      return new Outcome<>(null, "no answer within " + timeout.toSeconds() + " s");
    } catch (ExecutionException e) {
      LOG.debug("status read failed", e.getCause());
      return new Outcome<>(null, Reasons.oneLine(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      return new Outcome<>(null, "interrupted");
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "cdc-compare-status-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
