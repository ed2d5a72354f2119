package io.cdccompare.bench.e2e;

import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.verifier.apply.Checkpoint;
import io.cdccompare.verifier.apply.CheckpointStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Follows the initial copy of a load through the stream: the table topic's end offsets (the capture
 * has written every change) and each target's checkpoints (the verifier has applied and committed
 * them in the target, docs/design.md, "Delivery guarantees"). A target holds the load once its
 * checkpoint of every partition reaches the last offset; the moment is the latest of those
 * checkpoints' {@code updated_at} (written in the transaction that applied the last changes), so it
 * does not depend on how often this polls. Polls every {@value #POLL_MS} ms; reads only a few rows
 * per target.
 */
final class CopyWatch implements AutoCloseable {
  private static final long POLL_MS = 100;
  private static final long PROGRESS_MS = 5_000;

  /** When the capture had written the load, and when each target had applied it. */
  record Copy(Instant capturedAt, Map<String, Instant> appliedAt) {}

  private final Pipeline pipeline;
  private final List<Servers.Target> targets;
  private final String topic;
  private final Admin admin;
  private final List<TopicPartition> partitions = new ArrayList<>();
  private final Map<Integer, Long> start = new TreeMap<>();

  /** Notes the topic's end offsets before the load. */
  CopyWatch(Servers servers, Pipeline pipeline, BenchTable table) throws Exception {
    this.pipeline = pipeline;
    this.targets = servers.targets();
    this.topic = pipeline.topicOf(table);
    this.admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers.bootstrapServers()));
    try {
      admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get(30, TimeUnit.SECONDS)
          .get(topic)
          .partitions()
          .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      start.putAll(endOffsets());
    } catch (Exception e) {
      admin.close();
      throw e;
    }
  }

  int partitions() {
    return partitions.size();
  }

  /** Waits until the topic holds {@code rows} more records and every target applied them. */
  Copy await(long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextProgress = System.currentTimeMillis() + PROGRESS_MS;
    Instant capturedAt = null;
    Map<Integer, Long> end = null;
    Map<String, Instant> appliedAt = new LinkedHashMap<>();
    Map<String, Connection> connections = new LinkedHashMap<>();
    try {
      for (Servers.Target target : targets) {
        connections.put(target.name(), target.connect());
      }
      while (true) {
        if (end == null) {
          Map<Integer, Long> now = endOffsets();
          if (written(now) >= rows) {
            capturedAt = Instant.now();
            end = now;
          }
        }
        Map<String, Long> applied = new LinkedHashMap<>();
        for (Servers.Target target : targets) {
          if (appliedAt.containsKey(target.name())) {
            applied.put(target.name(), rows);
            continue;
          }
          List<Optional<Checkpoint>> checkpoints =
              checkpoints(target, connections.get(target.name()));
          applied.put(target.name(), appliedCount(checkpoints));
          if (end != null && reached(checkpoints, end)) {
            appliedAt.put(target.name(), latest(checkpoints));
          }
        }
        if (appliedAt.size() == targets.size()) {
          return new Copy(capturedAt, appliedAt);
        }
        pipeline.requireHealthy();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the copy of " + rows + " rows did not end within " + timeout + ": " + applied);
        }
        if (System.currentTimeMillis() > nextProgress) {
          nextProgress += PROGRESS_MS;
          System.err.printf(
              Locale.ROOT,
              "  copy: %,d of %,d rows in the topic; applied %s%n",
              end == null ? written(endOffsets()) : rows,
              rows,
              applied);
        }
        Thread.sleep(POLL_MS);
      }
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
    }
  }

  private Map<Integer, Long> endOffsets() {
    Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
    partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
    Map<Integer, Long> end = new TreeMap<>();
    try {
      admin
          .listOffsets(latest)
          .all()
          .get(30, TimeUnit.SECONDS)
          .forEach((tp, o) -> end.put(tp.partition(), o.offset()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the end offsets of " + topic, e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the end offsets of " + topic, e);
    }
    return end;
  }

  private long written(Map<Integer, Long> end) {
    return end.entrySet().stream().mapToLong(e -> e.getValue() - start.get(e.getKey())).sum();
  }

  private List<Optional<Checkpoint>> checkpoints(Servers.Target target, Connection c)
      throws SQLException {
    CheckpointStore store =
        new CheckpointStore(c, Dialect.forJdbcUrl(target.url()), pipeline.targetSchema(target));
    List<Optional<Checkpoint>> out = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      out.add(store.find(pipeline.applicationId(target), topic, tp.partition()));
    }
    return out;
  }

  /** Records applied since the load began, from the checkpoints (offsets are dense here). */
  private long appliedCount(List<Optional<Checkpoint>> checkpoints) {
    long n = 0;
    for (int i = 0; i < partitions.size(); i++) {
      long from = start.get(partitions.get(i).partition());
      long last = checkpoints.get(i).map(Checkpoint::offset).orElse(-1L);
      n += Math.max(0, last + 1 - from);
    }
    return n;
  }

  private boolean reached(List<Optional<Checkpoint>> checkpoints, Map<Integer, Long> end) {
    for (int i = 0; i < partitions.size(); i++) {
      int p = partitions.get(i).partition();
      if (end.get(p) > start.get(p)
          && checkpoints.get(i).map(Checkpoint::offset).orElse(-1L) < end.get(p) - 1) {
        return false;
      }
    }
    return true;
  }

  private static Instant latest(List<Optional<Checkpoint>> checkpoints) {
    return checkpoints.stream()
        .flatMap(Optional::stream)
        .map(Checkpoint::updatedAt)
        .max(Instant::compareTo)
        .orElseThrow();
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
