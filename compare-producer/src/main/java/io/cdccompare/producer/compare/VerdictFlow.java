package io.cdccompare.producer.compare;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flow control between the compare and its targets: the run opens chunk {@code n} of a table only
 * when every target of the task's {@code targets} key published the verdicts of chunk {@code n −
 * ahead} for every partition of the table topic, so the verdicts follow the source scan at a
 * bounded distance instead of falling further behind with every chunk. Without it a producer that
 * notes chunks faster than a verifier decides them (measured: 42 against 112 ms per 10 000-row
 * chunk) leaves a verdict lag that grows linearly over the run (1.7 s at its start, 7.4 s at its
 * end for 1 M rows) and a backlog of hash records on the hashes topic.
 *
 * <p>It reads the results topic from its end at the start of the run, on a thread of its own,
 * without a consumer group. A target that published no verdict of the task for {@code stallTimeout}
 * while the run waits for it is no longer waited for in this run (a warning names it): a stopped or
 * lagging verifier never stalls a compare; its verdicts come when it catches up.
 *
 * <p>Thread-safe: the reading thread records, the run's thread waits.
 */
final class VerdictFlow implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VerdictFlow.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final String task;
  private final int ahead;
  private final Duration stallTimeout;
  private final Set<String> waitedFor;
  private final KafkaConsumer<byte[], ChunkResult> consumer;
  private final Thread reader;

  /** (run, table, chunk) → the "target/partition" pairs whose verdict arrived. */
  private final Map<ChunkKey, Set<String>> verdicts = new HashMap<>();

  /** Partition count of the table topic, per (run, table), as the verdicts say. */
  private final Map<String, Integer> partitions = new HashMap<>();

  /** Per target, when its last verdict of this task arrived (System.nanoTime()). */
  private final Map<String, Long> lastVerdict = new HashMap<>();

  private volatile CompareMeters meters;
  private volatile RuntimeException failure;
  private volatile boolean closed;

  private record ChunkKey(String runId, String table, long chunk) {}

  /**
   * Starts reading the results topic from its end.
   *
   * @param targets the targets to wait for (the task's {@code targets})
   * @param ahead how many chunks the run may note ahead of the slowest target's verdicts
   * @param consumerConfig the consumer's connection settings (bootstrap servers, security)
   * @param registryConfig the schema registry settings of the Avro results
   */
  VerdictFlow(
      String task,
      List<String> targets,
      int ahead,
      Duration stallTimeout,
      String resultsTopic,
      Map<String, Object> consumerConfig,
      Map<String, Object> registryConfig) {
    if (ahead < 1 || targets.isEmpty()) {
      throw new IllegalArgumentException("flow control needs targets and ahead >= 1");
    }
    this.task = task;
    this.ahead = ahead;
    this.stallTimeout = stallTimeout;
    this.waitedFor = new LinkedHashSet<>(targets);
    Map<String, Object> config = new HashMap<>(consumerConfig);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    config.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cdc-compare-flow-" + task);
    Deserializer<ChunkResult> values = new SpecificAvroDeserializer<>(ChunkResult.class);
    values.configure(registryConfig, false);
    this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), values);
    List<TopicPartition> all;
    try {
      all =
          consumer.partitionsFor(resultsTopic).stream()
              .map(p -> new TopicPartition(resultsTopic, p.partition()))
              .toList();
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO); // the run fails; its consumer does not outlive it
      throw e;
    }
    targets.forEach(t -> lastVerdict.put(t, Long.MIN_VALUE / 2));
    this.reader = new Thread(this::read, "compare-flow-" + task);
    reader.setDaemon(true);
    if (all.isEmpty()) {
      LOG.warn(
          "task={} results topic {} does not exist (no verifier ran yet): the compare does not wait"
              + " for verdicts",
          task,
          resultsTopic);
      waitedFor.clear();
      return;
    }
    consumer.assign(all);
    consumer.seekToEnd(all);
    all.forEach(consumer::position); // the end now, before the first chunk is noted
    reader.start();
  }

  /** Tells {@code meters} of every verdict of the targets waited for; returns this. */
  VerdictFlow recordingIn(CompareMeters meters) {
    meters.waitFor(List.copyOf(waitedFor));
    this.meters = meters;
    return this;
  }

  /** How many chunks the run may note ahead of the verdicts. */
  int ahead() {
    return ahead;
  }

  /**
   * Waits until every target still waited for published the verdicts of {@code chunk} of the
   * table's run in every partition, or {@code stopping} says so.
   *
   * @throws IllegalStateException if the results topic cannot be read
   */
  void awaitVerified(String runId, String table, long chunk, BooleanSupplier stopping)
      throws InterruptedException {
    ChunkKey key = new ChunkKey(runId, table, chunk);
    long waitStart = System.nanoTime();
    synchronized (this) {
      while (!stopping.getAsBoolean()) {
        if (failure != null) {
          throw failure;
        }
        Set<String> waiting = waiting(key);
        if (waiting.isEmpty()) {
          forgetUpTo(key);
          return;
        }
        dropStalled(waiting, key, waitStart);
        wait(POLL.toMillis());
      }
    }
  }

  private Set<String> waiting(ChunkKey key) {
    Set<String> arrived = verdicts.getOrDefault(key, Set.of());
    Integer count = partitions.get(key.runId() + "\n" + key.table());
    Set<String> waiting = new LinkedHashSet<>();
    for (String target : waitedFor) {
      if (count == null) {
        waiting.add(target);
        continue;
      }
      for (int p = 0; p < count; p++) {
        if (!arrived.contains(target + "/" + p)) {
          waiting.add(target);
          break;
        }
      }
    }
    return waiting;
  }

  /** Stops waiting for targets silent for the stall timeout, counted from the wait's start. */
  private void dropStalled(Set<String> waiting, ChunkKey key, long waitStart) {
    long now = System.nanoTime();
    for (String target : waiting) {
      if (now - Math.max(waitStart, lastVerdict.get(target)) > stallTimeout.toNanos()) {
        waitedFor.remove(target);
        LOG.warn(
            "task={} run={} table={} target={} published no verdict for {} s while chunk {} was"
                + " waited for: the compare goes on without waiting for it (flow.stall.timeout.ms);"
                + " its verdicts come when it catches up",
            task,
            key.runId(),
            key.table(),
            target,
            stallTimeout.toSeconds(),
            key.chunk());
      }
    }
  }

  /** Forgets the verdicts of this table's run up to {@code key}: they are not waited for again. */
  private void forgetUpTo(ChunkKey key) {
    verdicts
        .keySet()
        .removeIf(
            k ->
                k.runId().equals(key.runId())
                    && k.table().equals(key.table())
                    && k.chunk() <= key.chunk());
  }

  private void read() {
    try {
      while (!closed) {
        for (ConsumerRecord<byte[], ChunkResult> record : consumer.poll(POLL)) {
          record(record.value());
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      if (!closed) {
        failure =
            new IllegalStateException(
                "task " + task + ": the results topic cannot be read: " + e.getMessage(), e);
        synchronized (this) {
          notifyAll();
        }
      }
    }
  }

  private void record(ChunkResult result) {
    if (result == null || !task.equals(result.getTask())) {
      return;
    }
    String target = result.getTarget();
    CompareMeters m = meters;
    if (m != null) {
      m.verdictPublished(
          target,
          result.getRunId(),
          result.getTable(),
          result.getChunk(),
          result.getTablePartition());
    }
    synchronized (this) {
      lastVerdict.put(target, System.nanoTime());
      if (waitedFor.contains(target)) {
        partitions.put(result.getRunId() + "\n" + result.getTable(), result.getPartitionCount());
        verdicts
            .computeIfAbsent(
                new ChunkKey(result.getRunId(), result.getTable(), result.getChunk()),
                k -> new HashSet<>())
            .add(target + "/" + result.getTablePartition());
      }
      notifyAll();
    }
  }

  @Override
  public void close() {
    closed = true;
    if (reader.isAlive()) {
      consumer.wakeup();
      try {
        reader.join(Duration.ofSeconds(10).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    consumer.close(Duration.ofSeconds(5));
  }
}
