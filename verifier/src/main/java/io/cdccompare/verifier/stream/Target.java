package io.cdccompare.verifier.stream;

import io.cdccompare.core.rowhash.CanonicalFormat;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.verifier.apply.ApplyBatch;
import io.cdccompare.verifier.apply.ApplyResult;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Optional;

/**
 * The target database as one stream task sees it: apply batches with their checkpoints (and
 * verdicts) in one transaction, read back stored verdicts and checkpoints, verify a chunk. {@link
 * JdbcTarget} is the real one (jdbc and the applier over JDBC); tests may put another behind the
 * topology.
 *
 * <p>Not thread-safe: one per stream task, used by the task's thread.
 */
interface Target extends AutoCloseable {

  /** The target table of a source table, with the key its changes are applied by. */
  TargetTable tableOf(TableName source);

  /** See {@link io.cdccompare.verifier.apply.TargetApplier#apply}. */
  ApplyResult apply(ApplyBatch batch) throws SQLException;

  /** See {@link io.cdccompare.verifier.apply.TargetApplier#removeKeys}. */
  void removeKeys(TargetTable table, Collection<String> keys, RecordPosition at)
      throws SQLException;

  /** The verdict stored when the checkpoint passed this chunk's CLOSE marker, if any. */
  Optional<PartitionVerdict> storedVerdict(VerdictId id) throws SQLException;

  /** The last applied offset of a partition, if any record of it was applied. */
  Optional<Long> checkpointOffset(String topic, int partition) throws SQLException;

  /**
   * Verifies one chunk in one partition, hashing the target by the source's format and function.
   *
   * @throws io.cdccompare.jdbc.db.TargetSchemaException for a missing table or column
   */
  ChunkVerdict verify(ChunkCheck check, CanonicalFormat format, HashFunction hashFunction)
      throws SQLException;

  /**
   * Whether the target's connection still answers; a retry after a failure opens a new one when it
   * does not ({@link RetryingTarget}).
   */
  default boolean usable() {
    return true;
  }

  @Override
  void close();

  /** Opens the target of one stream task. */
  @FunctionalInterface
  interface Opener {
    /**
     * @param taskId the stream task, for the connection's name
     */
    Target open(String taskId) throws SQLException;
  }
}
