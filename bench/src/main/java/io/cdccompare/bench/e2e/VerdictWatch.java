package io.cdccompare.bench.e2e;

import io.cdccompare.core.note.Note;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.serde.MarkerEnvelope;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches a compare run from outside, as a user's consumer would: every chunk result on the results
 * topic (when it arrived here, and what it carries: the CLOSE marker's record timestamp, which the
 * verifier forwards as the result's, and {@code verifiedAt}) and every CLOSE marker of the table's
 * topic (its {@code notedAt}, from one partition: all copies of a note are equal but for the
 * partition). Armed before the run: it reads from the ends of both topics at that moment, so it
 * needs no group and sees only what the run writes (the run has no live load beside it). One
 * polling thread; memory is a few numbers per chunk and partition.
 */
final class VerdictWatch implements AutoCloseable {

  /** One chunk result, as it arrived. */
  record Verdict(
      String target,
      String runId,
      long chunk,
      int partition,
      int partitionCount,
      String state,
      long matched,
      long differences,
      long inFlight,
      long markerTimestampMs,
      Instant verifiedAt,
      long arrivedMs) {}

  private final KafkaConsumer<byte[], byte[]> consumer;

  /**
   * The deserializers of one registry, shared by every watch of the process: their schema caches
   * outlive a watch, so only the first watch fetches the writer schemas, and no registry round trip
   * of the instrument delays the reading of results inside a measured window.
   */
  private record Decoders(
      SpecificAvroDeserializer<ChunkResult> results, SpecificAvroDeserializer<Marker> markers) {
    static Decoders of(String registryUrl) {
      Map<String, Object> registry = Map.of("schema.registry.url", registryUrl);
      SpecificAvroDeserializer<ChunkResult> results =
          new SpecificAvroDeserializer<>(ChunkResult.class);
      SpecificAvroDeserializer<Marker> markers = new SpecificAvroDeserializer<>(Marker.class);
      results.configure(registry, false);
      markers.configure(registry, false);
      return new Decoders(results, markers);
    }
  }

  private static final Map<String, Decoders> DECODERS = new ConcurrentHashMap<>();

  private final SpecificAvroDeserializer<ChunkResult> results;
  private final SpecificAvroDeserializer<Marker> markers;
  private final String resultsTopic;
  private final Map<String, Verdict> verdicts = new ConcurrentHashMap<>();
  private final Map<String, Instant> notedAt = new ConcurrentHashMap<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Thread poller;
  private volatile boolean closing;

  private VerdictWatch(
      String bootstrapServers, String registryUrl, String resultsTopic, String tableTopic) {
    this.resultsTopic = resultsTopic;
    Decoders decoders = DECODERS.computeIfAbsent(registryUrl, Decoders::of);
    this.results = decoders.results();
    this.markers = decoders.markers();
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                100),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    consumer
        .partitionsFor(resultsTopic, Duration.ofSeconds(30))
        .forEach(p -> partitions.add(new TopicPartition(resultsTopic, p.partition())));
    partitions.add(new TopicPartition(tableTopic, 0));
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position); // fixes the ends now, before the run writes
    poller = new Thread(this::poll, "e2e-verdict-watch");
    poller.setDaemon(true);
    poller.start();
  }

  /** Starts watching the results topic and the table topic's CLOSE markers from their ends. */
  static VerdictWatch arm(
      String bootstrapServers, String registryUrl, String resultsTopic, String tableTopic) {
    return new VerdictWatch(bootstrapServers, registryUrl, resultsTopic, tableTopic);
  }

  private void poll() {
    try {
      while (!closing) {
        var polled = consumer.poll(Duration.ofMillis(200));
        // the records of one fetch arrived together, whatever reading each of them costs here
        long arrived = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> r : polled) {
          if (r.topic().equals(resultsTopic)) {
            result(r, arrived);
          } else {
            marker(r);
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      failure.set(e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void result(ConsumerRecord<byte[], byte[]> r, long arrived) {
    ChunkResult v = results.deserialize(r.topic(), r.value());
    if (v == null) {
      return;
    }
    String key =
        v.getTarget() + "/" + v.getRunId() + "/" + v.getChunk() + "/" + v.getTablePartition();
    var counts = v.getCounts();
    verdicts.putIfAbsent(
        key,
        new Verdict(
            v.getTarget(),
            v.getRunId(),
            v.getChunk(),
            v.getTablePartition(),
            v.getPartitionCount(),
            v.getState().name(),
            counts.getMatched(),
            counts.getFailed() + counts.getMissed() + counts.getExtra(),
            counts.getInFlight(),
            r.timestamp(),
            v.getVerifiedAt(),
            arrived));
  }

  private void marker(ConsumerRecord<byte[], byte[]> r) {
    Header phase = r.headers().lastHeader(Note.MARKER_HEADER);
    if (phase == null || !"CLOSE".equals(new String(phase.value(), StandardCharsets.UTF_8))) {
      return;
    }
    Marker m = markers.deserialize(r.topic(), MarkerEnvelope.unwrap(r.value()));
    notedAt.putIfAbsent(m.getRunId() + "/" + m.getChunk(), m.getNotedAt());
  }

  /** "in sync", or what the results of one target say otherwise. */
  static String summary(List<Verdict> results, long rows) {
    long matched = results.stream().mapToLong(Verdict::matched).sum();
    long differences = results.stream().mapToLong(Verdict::differences).sum();
    long inFlight = results.stream().mapToLong(Verdict::inFlight).sum();
    long notVerified = results.stream().filter(v -> !v.state().equals("VERIFIED")).count();
    if (matched == rows && differences == 0 && inFlight == 0 && notVerified == 0) {
      return "in sync";
    }
    return String.format(
        java.util.Locale.ROOT,
        "NOT IN SYNC: matched %d of %d, differences %d, in flight %d, not verified %d",
        matched,
        rows,
        differences,
        inFlight,
        notVerified);
  }

  /** Throws what stopped the polling thread, if it stopped. */
  void requireHealthy() {
    Throwable e = failure.get();
    if (e != null) {
      throw new IllegalStateException("reading the results topic failed: " + e.getMessage(), e);
    }
  }

  /** The results of one run per target so far. */
  List<Verdict> of(String runId, String target) {
    return verdicts.values().stream()
        .filter(v -> v.runId().equals(runId) && v.target().equals(target))
        .toList();
  }

  /** When the CLOSE note of a chunk of a run was committed on the source (its {@code now()}). */
  Instant notedAt(String runId, long chunk) {
    return notedAt.get(runId + "/" + chunk);
  }

  /** How many CLOSE notes of a run were read. */
  long notes(String runId) {
    return notedAt.keySet().stream().filter(k -> k.startsWith(runId + "/")).count();
  }

  @Override
  public void close() throws InterruptedException {
    closing = true;
    consumer.wakeup();
    poller.join(10_000);
    results.close();
    markers.close();
  }
}
