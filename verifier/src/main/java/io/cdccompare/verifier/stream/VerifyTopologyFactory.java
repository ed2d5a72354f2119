package io.cdccompare.verifier.stream;

import io.cdccompare.core.table.TableName;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.registry.RegistryClientConfig;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import io.cdccompare.schemas.serde.SpecificAvroSerializer;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndFailExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the apply+verify topology of one target (docs/design.md, "The flow", steps 6–8, and
 * "Several targets"):
 *
 * <pre>
 *   verify-source (the table topics, byte[] key and value)
 *     → verify-apply (ApplyVerifyProcessor; stores verify-target, verify-open-chunks; on a
 *       verify-only target it applies nothing and waits for the followed group at each CLOSE)
 *     → verify-results (the results topic: String key, Avro ChunkResult)
 * </pre>
 *
 * Every node and store is named, so internal topic names ({@code
 * <application.id>-verify-open-chunks-changelog}) stay stable across versions. The table topics
 * must have the same partition count (the capture creates them so): a stream task then holds the
 * same partition of every table topic.
 */
public final class VerifyTopologyFactory {
  public static final String SOURCE = "verify-source";
  public static final String PROCESSOR = "verify-apply";
  public static final String SINK = "verify-results";

  private VerifyTopologyFactory() {}

  /** The topology on the real target (JDBC) and hashes topic (Kafka consumer). */
  public static Topology build(VerifierSettings settings) {
    return build(settings, VerifierMeters.none(settings.target()));
  }

  /** As {@link #build(VerifierSettings)}, recording its work in {@code meters}. */
  public static Topology build(VerifierSettings settings, VerifierMeters meters) {
    Clock clock = Clock.systemUTC();
    return build(
        settings,
        JdbcTarget.opener(settings),
        KafkaTopicReader.supplier(settings),
        clock,
        StopAlerts.kafka(settings, registryConfig(settings), clock),
        settings.verifyOnly() ? AdminFollowedGroup.supplier(settings) : null,
        Ticker.system(),
        meters);
  }

  /** The topology on a given target and topic reader (tests). */
  static Topology build(
      VerifierSettings settings,
      Target.Opener targets,
      Supplier<TopicReader> readers,
      Clock clock) {
    return build(
        settings,
        targets,
        readers,
        clock,
        StopAlerts.none(),
        null,
        Ticker.system(),
        VerifierMeters.none(settings.target()));
  }

  /** As below, recording nothing (topology tests). */
  static Topology build(
      VerifierSettings settings,
      Target.Opener targets,
      Supplier<TopicReader> readers,
      Clock clock,
      StopAlerts alerts,
      Supplier<FollowedGroup> followed,
      Ticker ticker) {
    return build(
        settings,
        targets,
        readers,
        clock,
        alerts,
        followed,
        ticker,
        VerifierMeters.none(settings.target()));
  }

  /**
   * The topology on a given target, topic reader and alerts; on a verify-only target, following the
   * groups {@code followed} gives (null otherwise) with {@code ticker}'s time; its work recorded in
   * {@code meters}.
   */
  static Topology build(
      VerifierSettings settings,
      Target.Opener targets,
      Supplier<TopicReader> readers,
      Clock clock,
      StopAlerts alerts,
      Supplier<FollowedGroup> followed,
      Ticker ticker,
      VerifierMeters meters) {
    StopAlerts counted =
        (code, at, table, error) -> {
          meters.alert(code.name());
          alerts.raise(code, at, table, error);
        };
    Supplier<FollowWait> follows =
        settings.verifyOnly() ? follows(settings, followed, ticker) : null;
    Map<String, TableName> sourceOfTopic = new LinkedHashMap<>();
    settings
        .tables()
        .sourceTables()
        .forEach(t -> sourceOfTopic.put(settings.tables().topicOf(t), t));
    Map<String, Object> registry = registryConfig(settings);
    Deserializer<Marker> markers =
        MarkerEnvelope.deserializer(deserializer(registry, Marker.class));
    SpecificAvroDeserializer<HashRecord> hashRecords = deserializer(registry, HashRecord.class);
    SpecificAvroSerializer<ChunkResult> results = new SpecificAvroSerializer<>();
    results.configure(registry, false);

    Topology topology = new Topology();
    topology.addSource(
        SOURCE,
        new ByteArrayDeserializer(),
        new ByteArrayDeserializer(),
        sourceOfTopic.keySet().toArray(String[]::new));
    topology.addProcessor(
        PROCESSOR,
        () ->
            new ApplyVerifyProcessor(
                settings,
                sourceOfTopic,
                markers,
                hashRecords,
                readers.get(),
                clock,
                counted,
                follows,
                meters),
        SOURCE);
    topology.addStateStore(new TargetStoreBuilder(settings.target(), targets, meters), PROCESSOR);
    topology.addStateStore(openChunksStore(), PROCESSOR);
    topology.addSink(
        SINK, settings.tables().resultsTopic(), new StringSerializer(), results, PROCESSOR);
    return topology;
  }

  /**
   * The waits of the processors for the followed group: each with a client of its own, all sharing
   * what was seen of the group's offsets ({@link FollowedOffsets}).
   */
  private static Supplier<FollowWait> follows(
      VerifierSettings settings, Supplier<FollowedGroup> followed, Ticker ticker) {
    FollowedOffsets seen = new FollowedOffsets();
    return () ->
        new FollowWait(
            followed.get(),
            seen,
            settings.follow().stallTimeout(),
            settings.followWaitLimit(),
            ticker);
  }

  /** How long the verifier's producer waits to batch (results, changelogs), unless set. */
  static final String RESULTS_LINGER_MS = "5";

  /**
   * The Kafka Streams properties of the application: the extra properties of the settings, then its
   * identity, a start at the earliest offset of a partition without committed offset (a new target
   * sees every change the topics still hold), failing on any processing error, and a producer that
   * lingers {@value #RESULTS_LINGER_MS} ms unless {@code linger.ms} is set.
   */
  public static Properties streamsProperties(VerifierSettings settings) {
    Properties props = new Properties();
    props.putAll(settings.kafka().streamsProperties());
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka().bootstrapServers());
    props.put(
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    // a verdict is published at once: Streams' own default (100 ms) added its wait to every lag
    if (!props.containsKey(ProducerConfig.LINGER_MS_CONFIG)) {
      props.putIfAbsent(
          StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), RESULTS_LINGER_MS);
    }
    props.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndFailProcessingExceptionHandler.class.getName());
    props.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndFailExceptionHandler.class.getName());
    return props;
  }

  private static StoreBuilder<?> openChunksStore() {
    return Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(OpenChunks.STORE), Serdes.String(), Serdes.String())
        .withCachingDisabled()
        .withLoggingEnabled(Map.of());
  }

  /** The registry settings for the serdes: the URL and any {@code schema.registry.*} extra. */
  static Map<String, Object> registryConfig(VerifierSettings settings) {
    return RegistryClientConfig.serdeSettings(
        settings.kafka().registryUrl(), settings.kafka().registrySettings());
  }

  static <T extends SpecificRecord> SpecificAvroDeserializer<T> deserializer(
      Map<String, Object> registry, Class<T> type) {
    SpecificAvroDeserializer<T> deserializer = new SpecificAvroDeserializer<>();
    Map<String, Object> config = new HashMap<>(registry);
    config.put(SpecificAvroDeserializer.VALUE_TYPE, type.getName());
    deserializer.configure(config, false);
    return deserializer;
  }
}
