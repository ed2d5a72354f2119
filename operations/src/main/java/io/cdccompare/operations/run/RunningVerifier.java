package io.cdccompare.operations.run;

import io.cdccompare.config.KafkaProbe;
import io.cdccompare.core.metrics.MetricNames;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.report.aggregate.ReportConfig;
import io.cdccompare.report.aggregate.ReportTopics;
import io.cdccompare.report.aggregate.ReportTopologyFactory;
import io.cdccompare.verifier.stream.ConnectPipeline;
import io.cdccompare.verifier.stream.ConnectVerifier;
import io.cdccompare.verifier.stream.ResultsTopic;
import io.cdccompare.verifier.stream.StreamThreads;
import io.cdccompare.verifier.stream.VerifierMeters;
import io.cdccompare.verifier.stream.VerifierSettings;
import io.cdccompare.verifier.stream.VerifyTopologyFactory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One target's verifier as a running process part: its apply+verify Kafka Streams application and,
 * unless disabled, an instance of the report aggregation (every instance of {@code
 * <prefix>-compare-report} shares the work through the Streams group). Topics they need are created
 * first. A stream thread that fails stops its application; {@link #awaitStop} returns the failure.
 * The results topic is kept in place while it runs ({@link ResultsTopicWatch}): deleted, it is
 * created again, and a report aggregation thread that stopped on it missing is replaced once it is
 * back instead of stopping the verifier, and the aggregation reads the new topic from its start.
 * Thread-safe.
 */
public final class RunningVerifier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunningVerifier.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  /** How long a Kafka Connect pipeline's verifier may finish its step before it is interrupted. */
  private static final Duration CONNECT_STOP_GRACE = Duration.ofSeconds(5);

  /** Longest a report aggregation thread that found its source topic missing waits for it. */
  private static final Duration MISSING_TOPIC_WAIT = Duration.ofSeconds(60);

  private final VerifierSettings settings;
  private final MeterRegistry registry;
  private final List<KafkaStreams> apps = new ArrayList<>();
  private final List<KafkaStreamsMetrics> appMetrics = new ArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile ResultsTopicWatch watch;
  private ConnectVerifier connect; // a stock pipeline's target: runs instead of the verify app
  private Thread connectThread;
  private volatile boolean closing;
  private final AtomicReference<String> reportWaiting = new AtomicReference<>();

  private RunningVerifier(VerifierSettings settings, MeterRegistry registry) {
    this.settings = settings;
    this.registry = registry;
    Gauge.builder(MetricNames.VERIFIER_HEALTHY.name(), this, v -> v.problem().isEmpty() ? 1 : 0)
        .description(MetricNames.VERIFIER_HEALTHY.help())
        .tag("target", settings.target())
        .strongReference(true)
        .register(registry);
  }

  /** Creates the topics, then starts the target's applications (they connect in the background). */
  public static RunningVerifier start(TargetsConfig config, String target) throws Exception {
    return start(config, target, config.reportAggregate());
  }

  /**
   * As {@link #start(TargetsConfig, String)}, choosing whether this process runs an instance of the
   * report aggregation.
   */
  public static RunningVerifier start(TargetsConfig config, String target, boolean aggregateReport)
      throws Exception {
    return start(config, target, aggregateReport, new CompositeMeterRegistry());
  }

  /**
   * As {@link #start(TargetsConfig, String, boolean)}, recording the verifier's work, its health
   * and its Kafka Streams clients' metrics in {@code registry} ({@code --metrics-port}).
   */
  public static RunningVerifier start(
      TargetsConfig config, String target, boolean aggregateReport, MeterRegistry registry)
      throws Exception {
    VerifierSettings settings = config.verifierSettings(target);
    RunningVerifier verifier = new RunningVerifier(settings, registry);
    requireTarget(settings);
    KafkaProbe.requireReachable(
        config.bootstrapServers(), config.withPrefix("admin."), KafkaProbe.DEFAULT_TIMEOUT);
    ResultsTopic.ensure(settings);
    verifier.watch = ResultsTopicWatch.start(settings, config.resultsTopicCheck());
    try {
      Path stateDir = config.stateDir().resolve(settings.applicationId());
      Optional<ConnectPipeline> pipeline = config.connectPipeline();
      if (pipeline.isPresent()) {
        verifier.connect(pipeline.get());
      } else {
        Properties verify = VerifyTopologyFactory.streamsProperties(settings);
        verify.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("verify").toString());
        int threads = StreamThreads.setDefault(settings, verify);
        LOG.info("target={} verifier runs {} stream threads", settings.target(), threads);
        verifier.add(
            VerifyTopologyFactory.build(settings, new VerifierMeters(registry, settings.target())),
            verify,
            false);
      }
      if (aggregateReport) {
        ReportConfig report = config.reportConfig();
        ReportTopics.ensure(report, config.bootstrapServers(), config.withPrefix("admin."));
        Properties props = new Properties();
        props.putAll(config.streamsProperties());
        props.putAll(report.streamsProperties(config.bootstrapServers()));
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("report").toString());
        verifier.add(ReportTopologyFactory.build(report), props, true);
      }
      verifier.apps.forEach(KafkaStreams::start);
      if (verifier.connectThread != null) {
        verifier.connectThread.start();
      }
    } catch (Exception | Error e) {
      if (verifier.connect != null) {
        verifier.connect.close();
      }
      verifier.watch.close();
      throw e;
    }
    return verifier;
  }

  /**
   * Verifies the target from a stock Debezium pipeline's topics ({@link ConnectVerifier}) on a
   * thread of its own instead of the apply+verify application (the file made sure the target is
   * verify-only).
   */
  private void connect(ConnectPipeline pipeline) throws SQLException {
    ConnectVerifier running =
        new ConnectVerifier(settings, pipeline, new VerifierMeters(registry, settings.target()));
    connect = running;
    connectThread =
        new Thread(
            () -> {
              try {
                running.run();
              } catch (Throwable e) {
                if (!closing) { // else the interrupt of close ended a wait: no failure
                  failure.compareAndSet(null, e);
                }
              } finally {
                stopped.countDown();
              }
            },
            "connect-verifier-" + settings.target());
  }

  /** Fails fast, naming the target and its URL, when the target database cannot be reached. */
  private static void requireTarget(VerifierSettings settings) throws SQLException {
    try (Connection c =
        DriverManager.getConnection(
            settings.database().jdbcUrl(),
            settings.database().user(),
            settings.database().password())) {
      c.isValid(5);
    } catch (SQLException e) {
      throw new SQLException(
          "cannot connect to " + settings.targetDescription() + ": " + e.getMessage(),
          e.getSQLState(),
          e);
    }
  }

  /**
   * @param readsResults the report aggregation, whose stream thread stopped by a missing source
   *     topic (the results topic deleted) is replaced once the topic is back, and which reads the
   *     results topic again from its start once it was replaced ({@link ReplacedTopicRewind})
   */
  private void add(Topology topology, Properties props, boolean readsResults) {
    KafkaStreams app =
        readsResults
            ? new KafkaStreams(
                topology,
                props,
                new ReplacedTopicRewind(
                    new StreamsConfig(props).getKafkaClientSupplier(),
                    settings.tables().resultsTopic(),
                    watch::replacements))
            : new KafkaStreams(topology, props);
    app.setUncaughtExceptionHandler(
        e -> {
          if (readsResults && !closing && missingSourceTopic(e)) {
            return replaceOnceResultsTopicIsBack(e);
          }
          failure.compareAndSet(null, e);
          stopped.countDown();
          return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    app.setStateListener(
        (now, before) -> {
          if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
            stopped.countDown();
          }
        });
    KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(app);
    metrics.bindTo(registry);
    appMetrics.add(metrics);
    apps.add(app);
  }

  private static boolean missingSourceTopic(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof MissingSourceTopicException) {
        return true;
      }
    }
    return false;
  }

  private StreamThreadExceptionResponse replaceOnceResultsTopicIsBack(Throwable e) {
    LOG.error(
        "target={} topic={} the report aggregation found its source topic missing ({}): its"
            + " stream thread is replaced once the results topic is back",
        settings.target(),
        settings.tables().resultsTopic(),
        e.getMessage());
    reportWaiting.set(
        "target "
            + settings.target()
            + ": the report aggregation waits for results topic "
            + settings.tables().resultsTopic()
            + " (missing: deleted while the verifier ran?)");
    try {
      watch.awaitPresent(MISSING_TOPIC_WAIT);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    } finally {
      reportWaiting.set(null);
    }
    return StreamThreadExceptionResponse.REPLACE_THREAD;
  }

  public VerifierSettings settings() {
    return settings;
  }

  /** True once every application of this verifier runs (partitions assigned, stores restored). */
  public boolean running() {
    return apps.stream().allMatch(a -> a.state() == KafkaStreams.State.RUNNING)
        && (connectThread == null || connectThread.isAlive());
  }

  /**
   * Waits until every application runs, or one failed.
   *
   * @throws IllegalStateException naming the failure, or the timeout
   */
  public void awaitRunning(Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (!running()) {
      requireHealthy();
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "verifier of target " + settings.target() + " did not start within " + timeout);
      }
      stopped.await(100, TimeUnit.MILLISECONDS);
    }
  }

  /** Waits until an application stopped by itself (a failure) or {@code timeout} passed. */
  public Optional<Throwable> awaitStop(Duration timeout) throws InterruptedException {
    stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return failure();
  }

  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure.get());
  }

  /** Closes every application, letting each commit what it applied. */
  @Override
  public void close() {
    close(CLOSE_TIMEOUT);
  }

  /**
   * Closes every application, waiting at most {@code timeout} for each (a broker that is gone
   * already would make a close wait for its whole timeout). Each leaves its consumer group as it
   * closes: Kafka Streams stays in it by default, and the verifier started next (a restart, a
   * rolling update) would wait for the group's session timeout, 45 s by default, before it gets the
   * partitions (found by the soak, docs/faults.md).
   */
  public void close(Duration timeout) {
    closing = true;
    if (watch != null) {
      watch.release();
    }
    if (connect != null) {
      // it stops after the step it is in; a step that waits (a target's retries, a followed
      // group that does not move) is interrupted after a short grace
      connect.stop();
      Duration grace = timeout.compareTo(CONNECT_STOP_GRACE) < 0 ? timeout : CONNECT_STOP_GRACE;
      try {
        connectThread.join(grace.toMillis());
        if (connectThread.isAlive()) {
          connectThread.interrupt();
          connectThread.join(timeout.minus(grace).toMillis() + 1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      connect.close();
    }
    // the watch goes on while the applications close: a producer blocked on a deleted results
    // topic is released when the topic is back, and its application then closes in time
    apps.forEach(
        a ->
            a.close(
                CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(timeout)));
    appMetrics.forEach(KafkaStreamsMetrics::close);
    if (watch != null) {
      watch.close();
    }
    stopped.countDown();
  }

  /**
   * Why this verifier is not healthy, in one line, or empty while it is: an application stopped by
   * itself (a poison record, a resync needed: the line names them) or is no longer running, or the
   * results topic is missing (the line names it) while it is created again. Before it runs the
   * first time (partitions being assigned) it is healthy. Thread-safe: {@code /health} and the
   * {@code verifier.healthy} gauge ask it.
   */
  public Optional<String> problem() {
    Optional<Throwable> stoppedBy = failure();
    if (stoppedBy.isPresent()) {
      return Optional.of(reason(stoppedBy.get()));
    }
    String topicMissing = watch == null ? null : watch.problem();
    if (topicMissing != null) {
      return Optional.of(topicMissing);
    }
    String waiting = reportWaiting.get();
    if (waiting != null) {
      return Optional.of(waiting);
    }
    if (connectThread != null && !connectThread.isAlive() && !closing) {
      return Optional.of(
          "target " + settings.target() + ": the pipeline's verifier is not running");
    }
    for (KafkaStreams app : apps) {
      KafkaStreams.State state = app.state();
      if (state == KafkaStreams.State.ERROR
          || state == KafkaStreams.State.PENDING_ERROR
          || state == KafkaStreams.State.NOT_RUNNING
          || state == KafkaStreams.State.PENDING_SHUTDOWN) {
        return Optional.of("target " + settings.target() + ": an application is " + state);
      }
    }
    return Optional.empty();
  }

  private String reason(Throwable stoppedBy) {
    Throwable cause = stoppedBy;
    while (cause.getCause() != null
        && cause.getClass().getName().startsWith("org.apache.kafka.streams")) {
      cause = cause.getCause();
    }
    String reason = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
    return "target " + settings.target() + " stopped: " + reason;
  }

  /**
   * Throws when an application stopped by itself, naming the target and the first cause that is not
   * Kafka Streams' own wrapper (a poison record's topic, partition and offset, say).
   */
  public void requireHealthy() {
    Optional<Throwable> stoppedBy = failure();
    if (stoppedBy.isPresent()) {
      throw new IllegalStateException(reason(stoppedBy.get()), stoppedBy.get());
    }
  }
}
