package io.cdccompare.verifier.stream;

import io.cdccompare.core.note.Note;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@link TopicReader} over a {@link KafkaConsumer} of its own, created at first use: no group, no
 * offset commits, {@code read_committed}; it assigns the one partition it reads. Own client
 * settings come from the verifier's {@code consumer.}-prefixed streams properties (security
 * settings and the like).
 *
 * <p>Its reads are one hash record per chunk and partition, in offset order within each partition
 * of the hashes topic, so it <b>reads ahead</b>: the records a fetch brought beyond the one asked
 * for are kept per partition ({@link Ahead}) and the next request at or after them is answered from
 * memory, with no seek and no fetch; a request outside them seeks. Before, every request sought and
 * fetched up to {@code max.partition.fetch.bytes} of which it used one record: bench's {@code
 * EndToEndThroughput} (1 M rows, a PostgreSQL target) found 725 MB of fetch buffers and 243 MB of
 * record copies allocated by this reader in a 16 s compare, and G1 collecting every 0.2 s. Two
 * defaults, unless the settings say otherwise:
 *
 * <ul>
 *   <li>{@code fetch.max.wait.ms} = {@value #FETCH_MAX_WAIT_MS}: a consumer sends the next fetch as
 *       soon as a poll returns, the broker holds it on the idle hashes partition for {@code
 *       fetch.max.wait.ms} (500 ms by default), and the next seek waited for it (measured at 200
 *       000 rows: 596 → 207 ms per chunk on a PostgreSQL target);
 *   <li>{@code max.partition.fetch.bytes} = {@value #MAX_PARTITION_FETCH_BYTES}: a fetch response
 *       of 1 MiB (the default) is a humongous object for G1 in a small heap (regions of 1 MiB at
 *       {@code -Xmx256m}); half of the collections in that compare were for humongous allocations.
 *       A bigger record is still returned whole.
 * </ul>
 */
final class KafkaTopicReader implements TopicReader {
  /** The longest the broker holds a fetch of this reader, unless the settings say otherwise. */
  static final int FETCH_MAX_WAIT_MS = 10;

  /** The most one fetch brings of a partition, unless the settings say otherwise. */
  static final int MAX_PARTITION_FETCH_BYTES = 256 * 1024;

  /** Partitions whose read-ahead records are kept, the least recently read dropped first. */
  static final int KEPT_PARTITIONS = 16;

  private final Map<String, Object> config;
  private final Map<TopicPartition, Ahead> ahead = new LinkedHashMap<>(16, 0.75f, true);
  private KafkaConsumer<byte[], byte[]> consumer;
  private TopicPartition assigned;

  KafkaTopicReader(Map<String, Object> config) {
    this.config = Map.copyOf(config);
  }

  /** One reader per processor, configured from the settings. */
  static Supplier<TopicReader> supplier(VerifierSettings settings) {
    Map<String, Object> config = clientConfig(settings);
    return () -> new KafkaTopicReader(config);
  }

  /** The reader's consumer configuration for these settings. */
  static Map<String, Object> clientConfig(VerifierSettings settings) {
    Map<String, Object> config = settings.kafka().clientSettings("consumer.");
    config.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
    config.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, MAX_PARTITION_FETCH_BYTES);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.applicationId() + "-hashes");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }

  /**
   * What is known of one partition from the fetches since its last seek: every record in offsets
   * {@code [from, next)}, in order (offsets without a record, such as transaction markers, are
   * simply absent). Records before the last request are dropped, and {@code from} moves up to it:
   * an earlier offset is no longer covered and seeks (answering it with a later kept record would
   * name that record as the one asked for).
   */
  private static final class Ahead {
    long from;
    long next;
    final ArrayDeque<ConsumerRecord<byte[], byte[]>> records = new ArrayDeque<>();

    Ahead(long from) {
      this.from = from;
      this.next = from;
    }

    boolean covers(long offset) {
      return offset >= from && offset <= next;
    }

    /** The first kept record at or after {@code offset}, dropping those before it. */
    Optional<ConsumerRecord<byte[], byte[]>> firstFrom(long offset) {
      while (!records.isEmpty() && records.peekFirst().offset() < offset) {
        records.pollFirst();
      }
      from = Math.max(from, offset);
      return Optional.ofNullable(records.peekFirst());
    }
  }

  @Override
  public Optional<ConsumerRecord<byte[], byte[]>> firstFrom(
      String topic, int partition, long offset, Duration timeout) {
    TopicPartition tp = new TopicPartition(topic, partition);
    Ahead kept = ahead.get(tp);
    if (kept == null || !kept.covers(offset)) {
      kept = new Ahead(offset);
      ahead.put(tp, kept);
      if (ahead.size() > KEPT_PARTITIONS) {
        ahead.remove(ahead.keySet().iterator().next());
      }
    } else {
      Optional<ConsumerRecord<byte[], byte[]>> found = kept.firstFrom(offset);
      if (found.isPresent()) {
        return found;
      }
    }
    KafkaConsumer<byte[], byte[]> c = consumer();
    if (!tp.equals(assigned) || c.position(tp) != kept.next) {
      c.assign(List.of(tp));
      c.seek(tp, kept.next);
      assigned = tp;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      for (ConsumerRecord<byte[], byte[]> record :
          c.poll(Duration.ofMillis(Math.max(1, Math.min(200, left / 1_000_000))))) {
        if (record.offset() >= kept.next) {
          kept.records.addLast(record);
          kept.next = record.offset() + 1;
        }
      }
      Optional<ConsumerRecord<byte[], byte[]>> found = kept.firstFrom(offset);
      if (found.isPresent()) {
        return found;
      }
      if (deadline - System.nanoTime() <= 0) {
        return Optional.empty();
      }
    }
  }

  @Override
  public Optional<Set<String>> keysBetween(
      String topic, int partition, long from, long until, Duration timeout) {
    Set<String> keys = new LinkedHashSet<>();
    if (from >= until) {
      return Optional.of(keys);
    }
    TopicPartition tp = new TopicPartition(topic, partition);
    KafkaConsumer<byte[], byte[]> c = consumer();
    c.assign(List.of(tp));
    c.seek(tp, from);
    assigned = tp; // the read-ahead of tp no longer matches the position: its next request seeks
    long deadline = System.nanoTime() + timeout.toNanos();
    while (c.position(tp) < until) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return Optional.empty();
      }
      for (ConsumerRecord<byte[], byte[]> record :
          c.poll(Duration.ofMillis(Math.max(1, Math.min(200, left / 1_000_000))))) {
        if (record.offset() < until
            && record.key() != null
            && record.headers().lastHeader(Note.MARKER_HEADER) == null) {
          keys.add(new String(record.key(), StandardCharsets.UTF_8));
        }
      }
    }
    return Optional.of(keys);
  }

  @Override
  public long endOffset(String topic, int partition) {
    TopicPartition tp = new TopicPartition(topic, partition);
    return consumer().endOffsets(List.of(tp)).get(tp);
  }

  @Override
  public long beginningOffset(String topic, int partition) {
    TopicPartition tp = new TopicPartition(topic, partition);
    return consumer().beginningOffsets(List.of(tp)).get(tp);
  }

  /** The fetch requests this reader's consumer sent so far (its {@code fetch-total} metric). */
  double fetchRequests() {
    if (consumer == null) {
      return 0;
    }
    return consumer.metrics().entrySet().stream()
        .filter(
            e ->
                e.getKey().name().equals("fetch-total")
                    && e.getKey().group().equals("consumer-fetch-manager-metrics"))
        .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
        .sum();
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      consumer = new KafkaConsumer<>(config);
    }
    return consumer;
  }

  @Override
  public void close() {
    ahead.clear();
    assigned = null;
    if (consumer != null) {
      consumer.close();
      consumer = null;
    }
  }
}
