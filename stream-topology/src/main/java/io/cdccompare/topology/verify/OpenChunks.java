package io.cdccompare.topology.verify;

import io.cdccompare.schemas.avro.Marker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chunks open in a task's partitions (OPEN marker seen, CLOSE not yet) and the keys changed in
 * each since its OPEN: the chunk's in-flight keys (DESIGN.md §3.2). Kept in a persistent,
 * changelogged key-value store, so a restarted task still knows them. After a crash the store may
 * hold more than the records replayed since the last commit would give (writes of records that are
 * read again), never less: in-flight keys only ever make the verdict more careful.
 *
 * <p>Layout (String keys, so a prefix scan finds one chunk's keys):
 *
 * <ul>
 *   <li>{@code C/<topic>/<partition>/<chunk id>} → the task name: the chunk is open;
 *   <li>{@code K/<topic>/<partition>/<chunk id>/<encoded key>} → empty: the key changed while the
 *       chunk was open;
 * </ul>
 *
 * where the chunk id is {@code <task>/<run id>/<chunk>} with {@code %} and {@code /} escaped.
 *
 * <p>A task compares one chunk of a table at a time, so an OPEN of another chunk of the same task
 * in the same partition means the previous one will never close (its run was abandoned): it is
 * dropped, and the store does not grow with abandoned runs. A replayed OPEN of the open chunk keeps
 * its keys. Not thread-safe: the task's thread only.
 */
final class OpenChunks {
  static final String STORE = "verify-open-chunks";

  private static final Logger LOG = LoggerFactory.getLogger(OpenChunks.class);
  private static final StringSerializer PREFIX = new StringSerializer();

  private final KeyValueStore<String, String> store;

  /** Per {@code topic/partition}: task → id of its open chunk. */
  private final Map<String, Map<String, String>> open = new HashMap<>();

  OpenChunks(KeyValueStore<String, String> store) {
    this.store = store;
    try (KeyValueIterator<String, String> chunks = store.prefixScan("C/", PREFIX)) {
      while (chunks.hasNext()) {
        KeyValue<String, String> entry = chunks.next();
        String[] parts = entry.key.split("/", 4);
        open.computeIfAbsent(parts[1] + "/" + parts[2], k -> new HashMap<>())
            .put(entry.value, parts[3]);
      }
    }
  }

  /** An OPEN marker: the chunk collects the keys changed from now on. */
  void open(String topic, int partition, Marker marker) {
    String partitionId = topic + "/" + partition;
    String chunk = chunkId(marker);
    Map<String, String> byTask = open.computeIfAbsent(partitionId, k -> new HashMap<>());
    String previous = byTask.get(marker.getTask());
    if (chunk.equals(previous)) {
      return; // replayed OPEN: the keys collected so far stand
    }
    if (previous != null) {
      LOG.info(
          "task={} partition={} chunk {} was never closed; {} opens: forgetting the old one",
          marker.getTask(),
          partitionId,
          previous,
          chunk);
      drop(partitionId, previous);
    }
    store.put("C/" + partitionId + "/" + chunk, marker.getTask());
    byTask.put(marker.getTask(), chunk);
  }

  /** A change of {@code key}: in flight for every chunk open in its partition. */
  void changed(String topic, int partition, String key) {
    Map<String, String> byTask = open.get(topic + "/" + partition);
    if (byTask == null) {
      return;
    }
    for (String chunk : byTask.values()) {
      store.put("K/" + topic + "/" + partition + "/" + chunk + "/" + key, "");
    }
  }

  /** True if the chunk of this marker is open in the partition. */
  boolean isOpen(String topic, int partition, Marker marker) {
    Map<String, String> byTask = open.get(topic + "/" + partition);
    return byTask != null && chunkId(marker).equals(byTask.get(marker.getTask()));
  }

  /** The keys changed in the partition since the chunk's OPEN marker. */
  Set<String> inFlight(String topic, int partition, Marker marker) {
    String prefix = "K/" + topic + "/" + partition + "/" + chunkId(marker) + "/";
    Set<String> keys = new LinkedHashSet<>();
    try (KeyValueIterator<String, String> entries = store.prefixScan(prefix, PREFIX)) {
      while (entries.hasNext()) {
        keys.add(entries.next().key.substring(prefix.length()));
      }
    }
    return keys;
  }

  /** A CLOSE marker whose verdict is stored: the chunk and its keys are forgotten. */
  void close(String topic, int partition, Marker marker) {
    String partitionId = topic + "/" + partition;
    String chunk = chunkId(marker);
    Map<String, String> byTask = open.get(partitionId);
    if (byTask != null && chunk.equals(byTask.get(marker.getTask()))) {
      byTask.remove(marker.getTask());
    }
    drop(partitionId, chunk);
  }

  private void drop(String partitionId, String chunk) {
    String prefix = "K/" + partitionId + "/" + chunk + "/";
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, String> entries = store.prefixScan(prefix, PREFIX)) {
      while (entries.hasNext()) {
        keys.add(entries.next().key);
      }
    }
    keys.forEach(store::delete);
    store.delete("C/" + partitionId + "/" + chunk);
  }

  static String chunkId(Marker marker) {
    return escape(marker.getTask()) + "/" + escape(marker.getRunId()) + "/" + marker.getChunk();
  }

  private static String escape(String part) {
    return part.replace("%", "%25").replace("/", "%2F");
  }
}
