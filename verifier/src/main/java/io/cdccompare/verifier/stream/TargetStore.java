package io.cdccompare.verifier.stream;

import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target database of one stream task, registered as a Kafka Streams state store so that its
 * pending batch is applied whenever Streams is about to commit the task's offsets: records are
 * never marked consumed in Kafka before their changes are in the target (docs/design.md, "Delivery
 * guarantees").
 *
 * <p>Which store hook runs before the offset commit, in Kafka Streams 4.3.1 (read in {@code
 * StreamTask}/{@code TaskExecutor}/{@code TaskManager}): every commit — periodic, requested, on
 * rebalance, on clean close — goes {@code prepareCommit} → offset commit → {@code postCommit}.
 * {@code prepareCommit} only flushes store <em>caches</em> ({@code
 * ProcessorStateManager.flushCache}, which calls {@link CachedStateStore#flushCache()} on every
 * registered store that implements it) and the record collector; {@link StateStore#commit(Map)}
 * (whose default calls {@link #flush()}) runs in {@code postCommit}, <em>after</em> the offsets
 * were committed. So the pending batch is applied in {@link #flushCache()}; {@link #flush()} and
 * {@link #commit(Map)} apply it too (a no-op by then), so that a Streams version that calls those
 * before committing is covered as well. {@code CachedStateStore} is Kafka Streams internal API: the
 * integration test that audits every offset commit against the target checkpoints guards it.
 *
 * <p>Applying early is always safe (the checkpoint skips what was applied), applying late is not;
 * so a batch is also applied when it is full, at a CLOSE marker, and after {@code applyMaxDelay}.
 * Not persistent and not logged: the target's own checkpoint table is its state. Not thread-safe:
 * used by its task's thread only.
 */
final class TargetStore implements StateStore, CachedStateStore<Object, Object> {
  static final String NAME = "verify-target";

  private static final Logger LOG = LoggerFactory.getLogger(TargetStore.class);

  private final String targetName;
  private final Target.Opener opener;
  private final VerifierMeters meters;
  private final List<RowChange> changes = new ArrayList<>();
  private final List<RecordPosition> passed = new ArrayList<>();
  private Target target;
  private String taskId;
  private ApplyFailedException failed;

  TargetStore(String targetName, Target.Opener opener, VerifierMeters meters) {
    this.targetName = targetName;
    this.opener = opener;
    this.meters = meters;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    taskId = context.taskId().toString();
    failed = null;
    try {
      target = opener.open(taskId);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "target " + targetName + " cannot be opened for task " + taskId + ": " + e.getMessage(),
          e);
    }
    context.register(root, (key, value) -> {});
  }

  /** The target, for reads and for batches that must be applied at once (verdicts). */
  Target target() {
    return target;
  }

  /** Adds a change to the pending batch. */
  void add(RowChange change) {
    changes.add(change);
  }

  /** Adds a record that changes no row (tombstone, marker) so the checkpoint moves past it. */
  void pass(RecordPosition position) {
    passed.add(position);
  }

  /** Records waiting in the pending batch. */
  int pending() {
    return changes.size() + passed.size();
  }

  /**
   * Applies the pending batch and its checkpoints in one target transaction, then forgets it.
   *
   * @throws ApplyFailedException naming the target and the records of the batch; once thrown, the
   *     same again without a new attempt (Streams flushes a failed task again as it closes it, and
   *     the target was already retried for {@code retry.timeout.ms})
   */
  void applyPending() {
    if (changes.isEmpty() && passed.isEmpty()) {
      return;
    }
    if (failed != null) {
      throw failed;
    }
    ApplyBatch batch = new ApplyBatch(changes, passed, List.of());
    try {
      ApplyResult result = target.apply(batch);
      LOG.debug(
          "target={} task={} applied={} skipped={} passed={}",
          targetName,
          taskId,
          result.applied(),
          result.skipped(),
          passed.size());
    } catch (SQLException | RuntimeException e) {
      failed = new ApplyFailedException(targetName, batch, e);
      throw failed;
    }
    countApplied();
    changes.clear();
    passed.clear();
  }

  /**
   * Counts the batch's changes per table-topic partition ({@code apply.rows}): one meter look-up
   * per run of changes of the same topic, not per change.
   */
  private void countApplied() {
    String topic = null;
    int partition = -1;
    long count = 0;
    for (RowChange change : changes) {
      RecordPosition at = change.position();
      if (at.partition() != partition || !at.topic().equals(topic)) {
        if (count > 0) {
          meters.partition(topic, partition).applied.increment(count);
        }
        topic = at.topic();
        partition = at.partition();
        count = 0;
      }
      count++;
    }
    if (count > 0) {
      meters.partition(topic, partition).applied.increment(count);
    }
  }

  /** Called by Streams before it commits the task's offsets: see the class comment. */
  @Override
  public void flushCache() {
    applyPending();
  }

  @Override
  @SuppressWarnings("deprecation")
  public void flush() {
    applyPending();
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    applyPending();
  }

  /**
   * Streams drops cached state (a task closed dirty or found corrupted): the pending records were
   * not committed in Kafka either, and are read again.
   */
  @Override
  public void clearCache() {
    discard("cache cleared");
  }

  @Override
  public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOld) {
    return false;
  }

  @Override
  public void close() {
    discard("store closed");
    if (target != null) {
      target.close();
      target = null;
    }
  }

  private void discard(String why) {
    if (pending() > 0) {
      LOG.info(
          "target={} task={} {}: {} records not applied; their offsets were not committed and they"
              + " are read again",
          targetName,
          taskId,
          why,
          pending());
    }
    changes.clear();
    passed.clear();
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public boolean isOpen() {
    return target != null;
  }
}
