package io.cdccompare.verifier.stream;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.TargetFailure;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A target whose transient failures ({@link TargetFailure}) are retried in place (docs/design.md,
 * "Delivery guarantees", "A target that fails or answers slowly"): each call is tried again with a
 * growing pause (0.1 s doubling to 2 s), on a new connection when the old one no longer answers,
 * until it succeeds or {@code retry.timeout.ms} has passed since its first attempt; then it fails
 * with a {@link TargetUnansweredException}. A fatal failure is thrown at once.
 *
 * <p>Why a retry is safe: an apply batch and its checkpoints are one target transaction, rolled
 * back on failure (and a commit whose answer was lost is skipped by the checkpoint when tried
 * again); a verify only reads, and it is retried at the same place in the stream, since the stream
 * thread waits meanwhile and nothing later of the partition is applied. Each retry is logged in one
 * line naming the target, the table and what failed.
 *
 * <p>Not thread-safe: one per stream task, like the target it wraps.
 */
final class RetryingTarget implements Target {
  private static final Logger LOG = LoggerFactory.getLogger(RetryingTarget.class);
  private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);

  private final String targetName;
  private final String taskId;
  private final Target.Opener opener;
  private final Duration statementTimeout;
  private final Duration retryTimeout;
  private Target target;

  private RetryingTarget(
      String targetName,
      String taskId,
      Target.Opener opener,
      Duration statementTimeout,
      Duration retryTimeout) {
    this.targetName = targetName;
    this.taskId = taskId;
    this.opener = opener;
    this.statementTimeout = statementTimeout;
    this.retryTimeout = retryTimeout;
  }

  /** Opens the target of a task through {@code opener}, retrying its transient failures too. */
  static Target.Opener opener(VerifierSettings settings, Target.Opener opener) {
    return taskId -> {
      RetryingTarget target =
          new RetryingTarget(
              settings.target(),
              taskId,
              opener,
              settings.retries().statementTimeout(),
              settings.retries().retryTimeout());
      target.retried("the opening of task " + taskId, t -> null);
      return target;
    };
  }

  /** One call on the wrapped target. */
  @FunctionalInterface
  private interface Call<T> {
    T on(Target target) throws SQLException;
  }

  private <T> T retried(String work, Call<T> call) throws SQLException {
    long start = System.nanoTime();
    Duration pause = FIRST_PAUSE;
    for (int attempt = 1; ; attempt++) {
      try {
        if (target == null) {
          target = opener.open(taskId);
        }
        return call.on(target);
      } catch (SQLException | RuntimeException e) {
        if (!TargetFailure.isTransient(e)) {
          throw e;
        }
        SQLException failure = asSql(e);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (elapsed.compareTo(retryTimeout) >= 0) {
          throw new TargetUnansweredException(
              targetName, work, retryTimeout, statementTimeout, attempt, failure);
        }
        boolean reconnect = target == null || !target.usable();
        LOG.warn(
            "target={} task={} {} failed (attempt {}, {} ms since the first), retrying in {} ms{}:"
                + " {}",
            targetName,
            taskId,
            work,
            attempt,
            elapsed.toMillis(),
            pause.toMillis(),
            reconnect ? " on a new connection" : "",
            TargetUnansweredException.firstLine(failure));
        if (reconnect) {
          drop();
        }
        pause(min(pause, retryTimeout.minus(elapsed)));
        pause = min(pause.multipliedBy(2), LONGEST_PAUSE);
      }
    }
  }

  private static SQLException asSql(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return new SQLException(e.getMessage(), e);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private void pause(Duration pause) throws SQLException {
    try {
      Thread.sleep(Math.max(0, pause.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("target " + targetName + ": interrupted while retrying", e);
    }
  }

  private void drop() {
    if (target != null) {
      target.close();
      target = null;
    }
  }

  /** The wrapped target, opened again if a retry dropped it. */
  private Target current() throws SQLException {
    return retried("the reconnection of task " + taskId, t -> t);
  }

  @Override
  public TargetTable tableOf(TableName source) {
    if (target != null) {
      return target.tableOf(source);
    }
    try {
      return current().tableOf(source);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override
  public ApplyResult apply(ApplyBatch batch) throws SQLException {
    return retried(applying(batch), t -> t.apply(batch));
  }

  @Override
  public void removeKeys(TargetTable table, Collection<String> keys, RecordPosition at)
      throws SQLException {
    retried(
        "the delete of " + keys.size() + " absent keys of table " + name(table.table()),
        t -> {
          t.removeKeys(table, keys, at);
          return null;
        });
  }

  @Override
  public Optional<PartitionVerdict> storedVerdict(VerdictId id) throws SQLException {
    return retried(
        "the read of the stored verdict of table " + id.table() + " chunk " + id.chunk(),
        t -> t.storedVerdict(id));
  }

  @Override
  public Optional<Long> checkpointOffset(String topic, int partition) throws SQLException {
    return retried(
        "the read of the checkpoint of " + topic + "-" + partition,
        t -> t.checkpointOffset(topic, partition));
  }

  @Override
  public ChunkVerdict verify(ChunkCheck check, CanonicalFormat format, HashFunction hashFunction)
      throws SQLException {
    return retried(
        "the verify of table " + name(check.table()) + " partition " + check.partition(),
        t -> t.verify(check, format, hashFunction));
  }

  @Override
  public boolean usable() {
    return target != null && target.usable();
  }

  @Override
  public void close() {
    drop();
  }

  static String name(TableRef table) {
    return table.schema() == null ? table.table() : table.schema() + "." + table.table();
  }

  /** What an apply batch is, for the log: its tables, or the checkpoints it moves. */
  private static String applying(ApplyBatch batch) {
    TreeSet<String> tables = new TreeSet<>();
    batch.changes().stream().map(RowChange::table).forEach(t -> tables.add(name(t)));
    if (!batch.verdicts().isEmpty()) {
      tables.add("verdicts");
    }
    int records = batch.changes().size() + batch.passed().size();
    return "the apply of "
        + records
        + (records == 1 ? " record" : " records")
        + (tables.isEmpty() ? " (checkpoints only)" : " to " + String.join(", ", tables));
  }
}
