package io.cdccompare.verifier.stream;

import io.cdccompare.core.chunk.ChunkWindow;
import io.cdccompare.schemas.avro.Marker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
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
 * each since its OPEN: the chunk's in-flight keys (docs/design.md, "Chunks, notes and the in-flight
 * window"). Kept in a persistent, changelogged key-value store, so a restarted task still knows
 * them. After a crash the store may hold more than the records replayed since the last commit would
 * give (writes of records that are read again), never less: in-flight keys only ever make the
 * verdict more careful.
 *
 * <p>Layout (String keys, so a prefix scan finds one chunk's keys):
 *
 * <ul>
 *   <li>{@code C/<topic>/<partition>/<chunk id>} → the task name: the chunk is open;
 *   <li>{@code K/<topic>/<partition>/<chunk id>/<encoded key>} → empty: the key changed while the
 *       chunk was open;
 *   <li>{@code O/<topic>/<partition>/<chunk id>} → the offset of the chunk's OPEN marker: a change
 *       at an offset below it, read again after a restart or a rebalance (from offsets committed
 *       before the OPEN), was made before the chunk was read and is not in flight (found by {@code
 *       CompareFaultsIT}: a broker frozen while a chunk was open made the group rebalance, the
 *       replayed rows of the table put every key of the open chunks in flight, a real difference
 *       among them). A chunk opened by an older verifier has none: every change counts.
 * </ul>
 *
 * where the chunk id is {@code <task>/<run id>/<chunk>} with {@code %} and {@code /} escaped.
 *
 * <p>A task keeps at most {@link ChunkWindow#OPEN_CHUNKS} chunks of a table open at once (it reads
 * the next chunk while the previous one's hash records are acknowledged). So an OPEN of a chunk of
 * another run of the same task in the same partition, or of a chunk at least that many numbers
 * further in the same run, means an open chunk will never close (its run was abandoned, or stopped
 * and resumed): it is dropped, and the store does not grow with abandoned runs. A replayed OPEN of
 * an open chunk keeps its keys. Not thread-safe: the task's thread only.
 */
final class OpenChunks {
  static final String STORE = "verify-open-chunks";

  private static final Logger LOG = LoggerFactory.getLogger(OpenChunks.class);
  private static final StringSerializer PREFIX = new StringSerializer();

  private final KeyValueStore<String, String> store;

  /** Per {@code topic/partition}: task → its open chunks. */
  private final Map<String, Map<String, List<Open>>> open = new HashMap<>();

  /** Per {@code topic/partition/chunk id}: the offset of the chunk's OPEN marker. */
  private final Map<String, Long> openedAt = new HashMap<>();

  /** An open chunk: its id in the store, and the run and number it was read from. */
  private record Open(String id, String run, long chunk) {
    static Open of(String id) {
      String[] parts = id.split("/", 3);
      return new Open(id, parts[1], Long.parseLong(parts[2]));
    }
  }

  OpenChunks(KeyValueStore<String, String> store) {
    this.store = store;
    try (KeyValueIterator<String, String> chunks = store.prefixScan("C/", PREFIX)) {
      while (chunks.hasNext()) {
        KeyValue<String, String> entry = chunks.next();
        String[] parts = entry.key.split("/", 4);
        open.computeIfAbsent(parts[1] + "/" + parts[2], k -> new HashMap<>())
            .computeIfAbsent(entry.value, k -> new ArrayList<>())
            .add(Open.of(parts[3]));
      }
    }
    try (KeyValueIterator<String, String> offsets = store.prefixScan("O/", PREFIX)) {
      while (offsets.hasNext()) {
        KeyValue<String, String> entry = offsets.next();
        openedAt.put(entry.key.substring(2), Long.parseLong(entry.value));
      }
    }
  }

  /** An OPEN marker at {@code offset}: the chunk collects the keys changed after it. */
  void open(String topic, int partition, long offset, Marker marker) {
    String partitionId = topic + "/" + partition;
    Open opening = Open.of(chunkId(marker));
    List<Open> ofTask =
        open.computeIfAbsent(partitionId, k -> new HashMap<>())
            .computeIfAbsent(marker.getTask(), k -> new ArrayList<>());
    if (ofTask.contains(opening)) {
      return; // replayed OPEN: the keys collected so far stand
    }
    for (Iterator<Open> it = ofTask.iterator(); it.hasNext(); ) {
      Open old = it.next();
      if (!old.run().equals(opening.run()) || ChunkWindow.abandoned(old.chunk(), opening.chunk())) {
        LOG.info(
            "task={} partition={} chunk {} was never closed; {} opens: forgetting the old one",
            marker.getTask(),
            partitionId,
            old.id(),
            opening.id());
        drop(partitionId, old.id());
        it.remove();
      }
    }
    store.put("C/" + partitionId + "/" + opening.id(), marker.getTask());
    store.put("O/" + partitionId + "/" + opening.id(), Long.toString(offset));
    openedAt.put(partitionId + "/" + opening.id(), offset);
    ofTask.add(opening);
  }

  /**
   * A change of {@code key} at {@code offset}: in flight for every chunk open in its partition
   * whose OPEN marker is before it.
   */
  void changed(String topic, int partition, long offset, String key) {
    String partitionId = topic + "/" + partition;
    Map<String, List<Open>> byTask = open.get(partitionId);
    if (byTask == null) {
      return;
    }
    for (List<Open> chunks : byTask.values()) {
      for (Open chunk : chunks) {
        Long opened = openedAt.get(partitionId + "/" + chunk.id());
        if (opened == null || offset > opened) {
          store.put("K/" + partitionId + "/" + chunk.id() + "/" + key, "");
        }
      }
    }
  }

  /** True if the chunk of this marker is open in the partition. */
  boolean isOpen(String topic, int partition, Marker marker) {
    Map<String, List<Open>> byTask = open.get(topic + "/" + partition);
    return byTask != null
        && byTask.getOrDefault(marker.getTask(), List.of()).contains(Open.of(chunkId(marker)));
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
    Map<String, List<Open>> byTask = open.get(partitionId);
    if (byTask != null) {
      List<Open> ofTask = byTask.get(marker.getTask());
      if (ofTask != null && ofTask.remove(Open.of(chunk)) && ofTask.isEmpty()) {
        byTask.remove(marker.getTask());
      }
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
    store.delete("O/" + partitionId + "/" + chunk);
    openedAt.remove(partitionId + "/" + chunk);
  }

  static String chunkId(Marker marker) {
    return escape(marker.getTask()) + "/" + escape(marker.getRunId()) + "/" + marker.getChunk();
  }

  private static String escape(String part) {
    return part.replace("%", "%25").replace("/", "%2F");
  }
}
