package io.cdccompare.capture;

import io.cdccompare.config.KafkaProbe;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.stream.CaptureNotices;
import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.table.TableName;
import io.cdccompare.events.EventKeyEncoder;
import io.cdccompare.schemas.avro.Alert;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import io.cdccompare.source.TopicLayout;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The capture: Debezium's embedded PostgreSQL engine ({@code pgoutput}, a publication of exactly
 * the captured tables plus {@code repi.validatetables} and {@code repi.signals}, its own slot)
 * writing every change to its table's topic, every note as markers into all partitions of the noted
 * table's topic, and Debezium's notifications to {@code <prefix>.capture.notices} (one partition).
 * A signal in {@code repi.signals} asks it to re-send keys (an incremental snapshot).
 *
 * <p>{@link #run()} blocks until {@link #stop()} or a failure. Before streaming it checks the
 * stored position can be continued ({@link ResyncCheck}); when it cannot, an alert is published and
 * a {@code RESYNC_NEEDED} error thrown — never a silent new start.
 */
public final class Capture implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Capture.class);

  /** How long a stop waits for {@link #run()} to end before it interrupts the engine's thread. */
  private static final Duration ENGINE_END = Duration.ofSeconds(5);

  /** How long a stop then waits again before it gives up, naming where the engine waits. */
  private static final Duration INTERRUPTED_END = Duration.ofSeconds(2);

  /**
   * The longest a {@link #stop()} takes, whatever the engine does: within docs/commands.md's 10 s
   * for a stopped {@code capture}, with time left for the program to close around it.
   */
  public static final Duration STOP_BOUND = ENGINE_END.plus(INTERRUPTED_END);

  private final CaptureConfig config;
  private final CaptureMeters meters;
  private final TopicLayout layout;
  private final Map<TableName, EventKeyEncoder> keys = new java.util.LinkedHashMap<>();
  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch engineEnded = new CountDownLatch(1);
  private volatile Thread engineThread;
  private final AtomicReference<DebeziumEngine<RecordChangeEvent<SourceRecord>>> engine =
      new AtomicReference<>();
  private volatile boolean stopping;
  private volatile Throwable stoppedBy;

  public Capture(CaptureConfig config) {
    this(config, CaptureMeters.none());
  }

  /** A capture that records its work in {@code meters} ({@code --metrics-port}). */
  public Capture(CaptureConfig config, CaptureMeters meters) {
    this.config = config;
    this.meters = meters;
    this.layout = new TopicLayout(config.topicPrefix(), config.tables(), config.topicPartitions());
  }

  /** Prepares the source and the topics, then streams until stopped. */
  public void run() throws Exception {
    try {
      stream();
    } catch (Exception | Error e) {
      stoppedBy = e;
      meters.stoppedByItself();
      throw e;
    } finally {
      engineEnded.countDown();
    }
  }

  /**
   * Why the capture stopped by itself (a {@code RESYNC_NEEDED}, a failed engine), or empty while it
   * runs or after a requested stop. Thread-safe: {@code /health} asks it.
   */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(stoppedBy);
  }

  private void stream() throws Exception {
    prepare();
    if (stopping) {
      return;
    }
    meters.tables(config.tables());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps());
        KafkaClientMetrics producerMetrics = new KafkaClientMetrics(producer);
        SpecificAvroSerializer<Marker> markers = new SpecificAvroSerializer<>();
        SpecificAvroSerializer<Alert> alerts = new SpecificAvroSerializer<>()) {
      producerMetrics.bindTo(meters.registry());
      markers.configure(registryProps(), false);
      alerts.configure(registryProps(), false);
      byte[] alertKey = config.engineName().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      JsonConverter values = new JsonConverter();
      values.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
      ChangeRouter router =
          new ChangeRouter(
              layout,
              keys,
              producer,
              values,
              MarkerEnvelope.serializer(markers),
              CaptureNotices.topic(config.topicPrefix()),
              alert ->
                  new ProducerRecord<>(
                      config.alertsTopic(),
                      alertKey,
                      alerts.serialize(config.alertsTopic(), alert)),
              meters);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      DebeziumEngine<RecordChangeEvent<SourceRecord>> built =
          DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
              .using(EngineSettings.engineProperties(config))
              .notifying(router)
              .using(
                  (success, message, error) -> {
                    if (!success && !stopping) {
                      failure.set(error != null ? error : new IllegalStateException(message));
                    }
                  })
              .using(
                  new DebeziumEngine.ConnectorCallback() {
                    @Override
                    public void taskStarted() {
                      started.countDown();
                    }
                  })
              .build();
      engine.set(built);
      if (stopping) {
        return;
      }
      LOG.info(
          "capture={} tables={} slot={} streaming",
          config.engineName(),
          layout.topics().keySet(),
          config.slotName());
      engineThread = Thread.currentThread();
      try {
        built.run();
      } finally {
        engineThread = null;
      }
      if (failure.get() != null) {
        throw new IllegalStateException(
            "capture " + config.engineName() + " stopped: " + failure.get().getMessage(),
            failure.get());
      }
    }
  }

  /** Waits until the engine streams (its task started); false on timeout. */
  public boolean awaitStreaming(Duration timeout) throws InterruptedException {
    return started.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  private void prepare() throws Exception {
    try (SourceCatalog catalog = new SourceCatalog(config);
        Admin admin = Admin.create(adminProps())) {
      // the source answered (the catalog connected); Kafka must too, before anything changes
      KafkaProbe.requireReachable(admin, config.bootstrapServers(), KafkaProbe.DEFAULT_TIMEOUT);
      for (TableName table : config.tables()) {
        refuseUnstreamableName(table);
        List<SourceCatalog.KeyColumn> key = catalog.keyColumns(table, config.keyColumns(table));
        keys.put(
            table,
            new EventKeyEncoder(
                new KeyCodec(key.stream().map(SourceCatalog.KeyColumn::type).toList()),
                key.stream().map(SourceCatalog.KeyColumn::name).toList()));
      }
      catalog.ensureNoteTables();
      TopicLayout.create(admin, config.alertsTopic(), 1, config.topicReplicationFactor());
      TopicLayout.create(
          admin, CaptureNotices.topic(config.topicPrefix()), 1, config.topicReplicationFactor());
      Optional<Long> stored =
          TopicLayout.partitionCount(admin, config.offsetsTopic()).isPresent()
              ? StoredOffsets.lastLsn(
                  adminProps(), config.offsetsTopic(), config.engineName(), config.topicPrefix())
              : Optional.empty();
      try {
        ResyncCheck.verify(stored, catalog.slot(config.slotName()), config.slotName());
      } catch (CdcCompareException e) {
        publishAlert(e);
        throw e;
      }
      catalog.ensurePublication(config.publicationName(), config.tables());
      layout.ensure(admin, catalog, config.topicReplicationFactor());
      TopicLayout.createCompacted(admin, config.offsetsTopic(), config.topicReplicationFactor());
    }
  }

  /**
   * Debezium 3.6's PostgreSQL streaming parses table ids and fails on a double quote inside a name
   * (the connector stops at the first change of that table); refused before anything is changed.
   */
  static void refuseUnstreamableName(TableName table) {
    if (table.schema().contains("\"") || table.table().contains("\"")) {
      throw new IllegalArgumentException(
          "table "
              + table
              + ": a name containing a double quote cannot be streamed (Debezium 3.6 fails to"
              + " parse it); rename the table or schema");
    }
  }

  private void publishAlert(CdcCompareException e) {
    Alert alert =
        Alert.newBuilder()
            .setCode(AlertCode.valueOf(e.code().name()))
            .setOrigin("capture")
            .setMessage(e.getMessage())
            .setRaisedAt(Instant.now())
            .build();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps());
        SpecificAvroSerializer<Alert> serializer = new SpecificAvroSerializer<>()) {
      serializer.configure(registryProps(), false);
      byte[] key = config.engineName().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      producer
          .send(
              new ProducerRecord<>(
                  config.alertsTopic(), key, serializer.serialize(config.alertsTopic(), alert)))
          .get();
      LOG.error(
          "capture={} code={} alert_topic={}: {}",
          config.engineName(),
          e.code(),
          config.alertsTopic(),
          e.getMessage());
    } catch (Exception publishFailure) {
      e.addSuppressed(publishFailure);
    }
  }

  /** {@code schema.registry.*} settings as the Avro serializer reads them. */
  private Map<String, Object> registryProps() {
    return RegistryClientConfig.serdeSettings(
        config.schemaRegistryUrl(), config.withPrefix(RegistryClientConfig.PREFIX));
  }

  private Map<String, Object> adminProps() {
    Map<String, Object> props = new HashMap<>(config.withPrefix("admin."));
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return props;
  }

  private Properties producerProps() {
    Properties props = new Properties();
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
    props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    props.putAll(config.withPrefix("producer."));
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    return props;
  }

  /**
   * Stops streaming and returns once {@link #run()} has ended, or after {@link #STOP_BOUND} at the
   * latest; a stop after the end returns at once. The engine is closed on a thread of its own,
   * because Debezium 3.6's {@code close()} itself waits for the engine's tasks to stop (up to its
   * {@code task.management.timeout.ms}, a multiple of its executor shutdown timeout), and nothing
   * bounds what a task's stop waits on. A run that has not ended {@link #ENGINE_END} after the stop
   * was asked is interrupted (see {@link #closeEngine}); one that has not ended {@link
   * #INTERRUPTED_END} later is left, with a warning that names the stop's bound and the stacks of
   * the engine's threads. Nothing is lost then: the source position is stored after every batch
   * Kafka acknowledged, and a restart resumes there.
   */
  public void stop() {
    stopping = true;
    DebeziumEngine<RecordChangeEvent<SourceRecord>> e = engine.get();
    if (e == null || engineEnded.getCount() == 0) {
      return;
    }
    Thread closer = new Thread(() -> closeEngine(e), "capture-close-" + config.engineName());
    closer.setDaemon(true);
    closer.start();
    if (awaitEnd(ENGINE_END)) {
      return;
    }
    Thread runner = engineThread;
    if (runner != null) {
      LOG.warn(
          "capture={} the engine did not end {} s after its stop was asked: its thread is"
              + " interrupted",
          config.engineName(),
          ENGINE_END.toSeconds());
      runner.interrupt();
    }
    if (awaitEnd(INTERRUPTED_END)) {
      return;
    }
    LOG.warn(
        "capture={} the engine did not end {} s after its stop was asked: the stop gives up"
            + " (the source position is stored after every acknowledged batch; a restart resumes"
            + " there). Where it waits:{}",
        config.engineName(),
        STOP_BOUND.toSeconds(),
        EngineThreads.describe(closer, runner));
  }

  /**
   * Closes the engine. Debezium 3.6 refuses to close (IllegalStateException) while its tasks are
   * still starting: it is asked again until it accepts, so a stop during startup is not lost. Its
   * asynchronous engine also has a window, right after its tasks started, where a close drops the
   * polling task it is about to submit (the task service is shut down under it) and its {@code
   * run()} then waits for that task forever (found as a test that hung, 2026-12-02: a capture
   * stopped the moment it streamed); that wait is interruptible and the engine ends cleanly once
   * interrupted, which {@link #stop()} does.
   */
  private void closeEngine(DebeziumEngine<RecordChangeEvent<SourceRecord>> e) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (engineEnded.getCount() > 0) {
      try {
        e.close();
        return;
      } catch (IllegalStateException starting) {
        if (System.nanoTime() > deadline) {
          LOG.warn("capture={} did not stop: {}", config.engineName(), starting.toString());
          return;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
      } catch (java.io.IOException ex) {
        LOG.warn("capture={} did not stop cleanly: {}", config.engineName(), ex.toString());
        return;
      }
    }
  }

  private boolean awaitEnd(Duration bound) {
    try {
      return engineEnded.await(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return engineEnded.getCount() == 0;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
