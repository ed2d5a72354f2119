package io.cdccompare.operations.page;

import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.RowCounts;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Each chunk's verdict per target, for the runs a page shows: a chunk's verdict on a target is the
 * union of its partitions' results (a replayed result counted once), and its colour the worst of
 * them. Fed one chunk result at a time ({@link #add}). Not thread-safe.
 */
public final class ChunkStrips {
  /** A chunk's verdict on one target, worst first. */
  public enum Verdict {
    UNVERIFIABLE,
    DIFFERENCES,
    IN_FLIGHT,
    PENDING,
    MATCHED
  }

  private record RunKey(String task, String runId, String table, String target) {}

  private static final class Chunk {
    final Set<Integer> partitions = new HashSet<>();
    int partitionCount;
    boolean unverifiable;
    boolean different;
    boolean inFlight;
  }

  private final Set<RunKey> wanted = new HashSet<>();
  private final Map<RunKey, TreeMap<Long, Chunk>> chunks = new HashMap<>();

  /** Keeps the chunks of this run of a table on a target. */
  public void want(String task, String runId, String table, String target) {
    wanted.add(new RunKey(task, runId, table, target));
  }

  public void add(ChunkResult r) {
    RunKey key = new RunKey(r.getTask(), r.getRunId(), r.getTable(), r.getTarget());
    if (!wanted.contains(key)) {
      return;
    }
    Chunk chunk =
        chunks
            .computeIfAbsent(key, k -> new TreeMap<>())
            .computeIfAbsent(r.getChunk(), c -> new Chunk());
    if (!chunk.partitions.add(r.getTablePartition())) {
      return; // a replayed marker re-emits the same verdict
    }
    chunk.partitionCount = r.getPartitionCount();
    RowCounts c = r.getCounts();
    chunk.unverifiable |= r.getState() != ChunkState.VERIFIED;
    chunk.different |= c.getFailed() + c.getMissed() + c.getExtra() > 0;
    chunk.inFlight |= c.getInFlight() > 0;
  }

  /** The verdict of each chunk of a run of a table on a target, by chunk number. */
  public TreeMap<Long, Verdict> strip(String task, String runId, String table, String target) {
    TreeMap<Long, Verdict> strip = new TreeMap<>();
    chunks
        .getOrDefault(new RunKey(task, runId, table, target), new TreeMap<>())
        .forEach((number, chunk) -> strip.put(number, verdict(chunk)));
    return strip;
  }

  private static Verdict verdict(Chunk chunk) {
    if (chunk.unverifiable) {
      return Verdict.UNVERIFIABLE;
    }
    if (chunk.different) {
      return Verdict.DIFFERENCES;
    }
    if (chunk.partitions.size() < chunk.partitionCount) {
      return Verdict.PENDING;
    }
    return chunk.inFlight ? Verdict.IN_FLIGHT : Verdict.MATCHED;
  }
}
