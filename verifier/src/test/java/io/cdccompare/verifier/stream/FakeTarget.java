package io.cdccompare.verifier.stream;

import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.LogicalType;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkComparison;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.MarkerVerdict;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A target in memory that keeps what the processor asked of it, in order: batches applied (with the
 * call stack they were applied from), chunks verified, verdicts stored under the applier's skip
 * rule (a marker at or below the checkpoint keeps the stored verdict).
 */
final class FakeTarget implements Target {
  static final TableRef TABLE = new TableRef("public", "items");
  static final TargetTable ITEMS =
      new TargetTable(TABLE, List.of("id"), new KeyCodec(List.of(LogicalType.INTEGER)));

  /** Every call, in order: {@code apply}, {@code verify}. */
  final List<String> calls = new ArrayList<>();

  final List<ApplyBatch> batches = new ArrayList<>();
  final List<List<String>> applyStacks = new ArrayList<>();
  final List<ChunkCheck> checks = new ArrayList<>();
  final Map<VerdictId, PartitionVerdict> verdicts = new HashMap<>();
  final Map<String, Long> checkpoints = new HashMap<>();

  /** What {@link #verify} answers; a {@link RuntimeException} is thrown instead. */
  Object verifyAnswer = ChunkVerdict.empty();

  /**
   * When set, the target table's rows (encoded key → row hash): a key-list check is then decided on
   * them as {@code ChunkVerifier} does, each hashed and absent key looked up by key, instead of
   * answering {@link #verifyAnswer}.
   */
  Map<String, byte[]> rows;

  @Override
  public TargetTable tableOf(TableName source) {
    return ITEMS;
  }

  /** The keys {@link #removeKeys} was given, call after call. */
  final List<List<String>> removed = new ArrayList<>();

  @Override
  public void removeKeys(TargetTable table, Collection<String> keys, RecordPosition at) {
    calls.add("remove");
    removed.add(List.copyOf(keys));
    if (rows != null) {
      keys.forEach(rows::remove);
    }
  }

  @Override
  public ApplyResult apply(ApplyBatch batch) {
    calls.add("apply");
    batches.add(batch);
    applyStacks.add(
        Arrays.stream(new Throwable().getStackTrace())
            .map(e -> e.getClassName() + "." + e.getMethodName())
            .toList());
    int stored = 0;
    for (MarkerVerdict verdict : batch.verdicts()) {
      String partition = verdict.marker().topic() + "-" + verdict.marker().partition();
      if (verdict.marker().offset() > checkpoints.getOrDefault(partition, -1L)) {
        verdicts.put(verdict.verdict().id(), verdict.verdict());
        stored++;
      }
    }
    List<RecordPosition> positions = new ArrayList<>(batch.passed());
    batch.changes().forEach(c -> positions.add(c.position()));
    batch.verdicts().forEach(v -> positions.add(v.marker()));
    for (RecordPosition p : positions) {
      checkpoints.merge(p.topic() + "-" + p.partition(), p.offset(), Math::max);
    }
    return new ApplyResult(
        batch.changes().size(), 0, stored, batch.verdicts().size() - stored, List.of());
  }

  @Override
  public Optional<PartitionVerdict> storedVerdict(VerdictId id) {
    return Optional.ofNullable(verdicts.get(id));
  }

  @Override
  public Optional<Long> checkpointOffset(String topic, int partition) {
    return Optional.ofNullable(checkpoints.get(topic + "-" + partition));
  }

  @Override
  public ChunkVerdict verify(ChunkCheck check, CanonicalFormat format, HashFunction hashFunction)
      throws SQLException {
    calls.add("verify");
    checks.add(check);
    if (verifyAnswer instanceof RuntimeException e) {
      throw e;
    }
    if (rows != null && check.keyList()) {
      ChunkComparison comparison =
          new ChunkComparison(
              check.chunkHashes(), check.inFlightKeys(), check.partition(), check.partitionCount());
      List<String> keys = new ArrayList<>(check.chunkHashes().keySet());
      keys.addAll(check.absentKeys());
      for (String key : keys) {
        if (rows.containsKey(key)) {
          comparison.acceptTarget(key, rows.get(key));
        }
      }
      return comparison.verdict();
    }
    return (ChunkVerdict) verifyAnswer;
  }

  /** Every change applied so far, in order. */
  List<RowChange> changes() {
    List<RowChange> all = new ArrayList<>();
    batches.forEach(b -> all.addAll(b.changes()));
    return all;
  }

  /** Every passed position so far, in order. */
  List<RecordPosition> passed() {
    List<RecordPosition> all = new ArrayList<>();
    batches.forEach(b -> all.addAll(b.passed()));
    return all;
  }

  @Override
  public void close() {}
}
