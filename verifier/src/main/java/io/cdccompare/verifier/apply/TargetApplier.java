package io.cdccompare.verifier.apply;

import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.TargetCatalog;
import io.cdccompare.jdbc.db.TargetSession;
import io.cdccompare.jdbc.sql.Dialect;
import io.cdccompare.jdbc.sql.TableRef;
import io.cdccompare.verifier.verdict.VerdictStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies batches of row changes to one target database, each batch with its checkpoints (and the
 * verdicts of the CLOSE markers it passes) in ONE target transaction (docs/design.md, "Delivery
 * guarantees"):
 *
 * <ol>
 *   <li>the checkpoint rows of the batch's partitions are locked ({@code FOR UPDATE});
 *   <li>every change at or below its partition's checkpoint offset is skipped, and so is a change
 *       whose offset an earlier change of the batch reached: replays and duplicates are harmless;
 *   <li>the other changes are written in order (upsert by key, delete by key, JDBC batches);
 *   <li>verdicts whose marker the checkpoint had not passed yet are inserted (a replayed marker's
 *       verdict is skipped: the stored one stands);
 *   <li>each checkpoint moves to the highest offset of the batch in its partition, with that
 *       record's source position, and the transaction commits.
 * </ol>
 *
 * On any error the transaction is rolled back: nothing of the batch is applied and no checkpoint
 * moves. The target's tables must exist: a missing table or column is a {@link
 * io.cdccompare.jdbc.db.TargetSchemaException} naming it (checked once per table).
 *
 * <p>Not thread-safe: one applier per connection (a stream task), used by one thread. It owns the
 * connection's transactions and leaves its auto-commit setting as it found it.
 */
public final class TargetApplier {

  private static final Logger LOG = LoggerFactory.getLogger(TargetApplier.class);

  private final Connection connection;
  private final String application;
  private final Clock clock;
  private final CheckpointStore checkpoints;
  private final VerdictStore verdicts;
  private final RowWriter writer;

  private TargetApplier(
      Connection connection,
      Dialect dialect,
      String application,
      String bookkeepingSchema,
      Collection<TargetTable> tables,
      Clock clock) {
    if (application == null || application.isEmpty()) {
      throw new IllegalArgumentException("an applier needs its application id");
    }
    this.connection = connection;
    this.application = application;
    this.clock = clock;
    this.checkpoints = new CheckpointStore(connection, dialect, bookkeepingSchema);
    this.verdicts = new VerdictStore(connection, dialect, bookkeepingSchema);
    Map<TableRef, TargetTable> byName = new HashMap<>();
    for (TargetTable table : tables) {
      if (byName.put(table.table(), table) != null) {
        throw new IllegalArgumentException("table " + table.table() + " is listed twice");
      }
    }
    this.writer =
        new RowWriter(connection, dialect, new TargetCatalog(connection, dialect), byName);
  }

  /**
   * An applier on a connection: prepares the session ({@link TargetSession}) and creates the
   * checkpoint and verdict tables unless they exist.
   *
   * @param application the apply application's id: checkpoints and verdicts are kept per id
   * @param bookkeepingSchema the schema (PostgreSQL) or database (MariaDB) holding the checkpoint
   *     and verdict tables, {@code null} for the connection's current one; it must exist
   * @param tables the tables changes may be applied to
   * @param clock the time written into checkpoints
   */
  public static TargetApplier open(
      Connection connection,
      Dialect dialect,
      String application,
      String bookkeepingSchema,
      Collection<TargetTable> tables,
      Clock clock)
      throws SQLException {
    TargetApplier applier =
        new TargetApplier(connection, dialect, application, bookkeepingSchema, tables, clock);
    TargetSession.prepare(connection, dialect);
    applier.checkpoints.createTableIfMissing();
    applier.verdicts.createTableIfMissing();
    if (!connection.getAutoCommit()) {
      connection.commit();
    }
    return applier;
  }

  /**
   * Applies a batch and its checkpoints in one transaction; see the class comment.
   *
   * @throws io.cdccompare.jdbc.db.TargetSchemaException for a missing table or column
   * @throws IllegalArgumentException for a change or verdict that cannot be applied, naming its
   *     position
   * @throws SQLException if the target refuses a statement (the message names table and positions)
   */
  public ApplyResult apply(ApplyBatch batch) throws SQLException {
    for (MarkerVerdict verdict : batch.verdicts()) {
      if (!verdict.verdict().id().application().equals(application)) {
        throw new IllegalArgumentException(
            "verdict " + verdict.verdict().id() + " is not one of application " + application);
      }
    }
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try {
      ApplyResult result = applyInTransaction(batch);
      connection.commit();
      LOG.debug(
          "application={} applied={} skipped={} verdicts_stored={} verdicts_skipped={}",
          application,
          result.applied(),
          result.skipped(),
          result.verdictsStored(),
          result.verdictsSkipped());
      return result;
    } catch (SQLException | RuntimeException | Error e) {
      TargetSession.rollback(connection, e);
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /**
   * Deletes rows by key in one transaction of its own, leaving checkpoints and verdicts as they
   * are: what a REPAIR chunk does at its CLOSE marker with the keys the source no longer holds
   * (docs/design.md, "Repair"). Deleting a key that is not there does nothing, so a CLOSE marker
   * replayed after a crash deletes the same keys again harmlessly.
   *
   * @param keys canonical key encodings of {@code table}
   * @param at the CLOSE marker's position, named by an error
   * @throws SQLException if the target refuses a delete (nothing of the call is kept)
   */
  public void removeKeys(TableRef table, Collection<String> keys, RecordPosition at)
      throws SQLException {
    if (keys.isEmpty()) {
      return;
    }
    List<RowChange> deletes = new ArrayList<>(keys.size());
    keys.forEach(key -> deletes.add(RowChange.delete(table, key, at)));
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try {
      writer.write(deletes);
      connection.commit();
      LOG.info("application={} table={} removed keys={} at {}", application, table, keys, at);
    } catch (SQLException | RuntimeException | Error e) {
      TargetSession.rollback(connection, e);
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /** The checkpoint of one partition for this application, if one was written. */
  public Optional<Checkpoint> checkpoint(String topic, int partition) throws SQLException {
    return checkpoints.find(application, topic, partition);
  }

  /** The stored verdict with this id (to re-emit for a replayed CLOSE marker), if any. */
  public Optional<PartitionVerdict> storedVerdict(VerdictId id) throws SQLException {
    return verdicts.find(id);
  }

  private ApplyResult applyInTransaction(ApplyBatch batch) throws SQLException {
    Map<Partition, Optional<Checkpoint>> stored = lockCheckpoints(batch);
    Progress progress = new Progress();
    stored.forEach((p, c) -> progress.reached.put(p, c.map(Checkpoint::offset).orElse(-1L)));

    List<RowChange> toApply = new ArrayList<>(batch.changes().size());
    for (RowChange change : batch.changes()) {
      if (advance(change.position(), progress)) {
        toApply.add(change);
      }
    }
    int skipped = batch.changes().size() - toApply.size();
    batch.passed().forEach(position -> advance(position, progress));

    List<PartitionVerdict> toStore = new ArrayList<>();
    for (MarkerVerdict verdict : batch.verdicts()) {
      RecordPosition marker = verdict.marker();
      long covered = stored.get(Partition.of(marker)).map(Checkpoint::offset).orElse(-1L);
      if (marker.offset() > covered) {
        toStore.add(verdict.verdict());
      }
      advance(marker, progress);
    }

    writer.write(toApply);
    for (PartitionVerdict verdict : toStore) {
      verdicts.insert(verdict);
    }
    List<Checkpoint> after = new ArrayList<>();
    for (Map.Entry<Partition, Optional<Checkpoint>> entry : stored.entrySet()) {
      RecordPosition moved = progress.last.get(entry.getKey());
      if (moved == null) {
        entry.getValue().ifPresent(after::add);
        continue;
      }
      Checkpoint checkpoint =
          checkpointAt(moved, progress.source.get(entry.getKey()), entry.getValue());
      checkpoints.save(checkpoint);
      after.add(checkpoint);
    }
    return new ApplyResult(
        toApply.size(), skipped, toStore.size(), batch.verdicts().size() - toStore.size(), after);
  }

  /** Locks the checkpoint of every partition of the batch, in a stable order (no deadlocks). */
  private Map<Partition, Optional<Checkpoint>> lockCheckpoints(ApplyBatch batch)
      throws SQLException {
    Map<Partition, Optional<Checkpoint>> stored = new TreeMap<>();
    List<RecordPosition> positions = new ArrayList<>();
    batch.changes().forEach(change -> positions.add(change.position()));
    positions.addAll(batch.passed());
    batch.verdicts().forEach(verdict -> positions.add(verdict.marker()));
    for (RecordPosition position : positions) {
      stored.put(Partition.of(position), Optional.empty());
    }
    for (Partition partition : stored.keySet()) {
      stored.put(partition, checkpoints.lock(application, partition.topic(), partition.number()));
    }
    return stored;
  }

  /** True if the position is past what its partition reached, which it then reaches. */
  private static boolean advance(RecordPosition position, Progress progress) {
    Partition partition = Partition.of(position);
    if (position.offset() <= progress.reached.get(partition)) {
      return false;
    }
    progress.reached.put(partition, position.offset());
    progress.last.put(partition, position);
    if (position.source() != null) {
      progress.source.put(partition, position.source());
    }
    return true;
  }

  /** Per partition: the offset reached, the record there, the last source position met. */
  private static final class Progress {
    final Map<Partition, Long> reached = new HashMap<>();
    final Map<Partition, RecordPosition> last = new HashMap<>();
    final Map<Partition, SourcePosition> source = new HashMap<>();
  }

  /**
   * The checkpoint at a position, with the last source position met up to it: in this batch, or the
   * one stored before when no record of the batch carried one (a marker has none).
   */
  private Checkpoint checkpointAt(
      RecordPosition position, SourcePosition source, Optional<Checkpoint> before) {
    Long commitLsn = before.map(Checkpoint::commitLsn).orElse(null);
    Long lsn = before.map(Checkpoint::lsn).orElse(null);
    if (source != null) {
      commitLsn = source.commitLsn();
      lsn = source.lsn();
    }
    return new Checkpoint(
        application,
        position.topic(),
        position.partition(),
        position.offset(),
        commitLsn,
        lsn,
        clock.instant());
  }

  private record Partition(String topic, int number) implements Comparable<Partition> {
    static Partition of(RecordPosition position) {
      return new Partition(position.topic(), position.partition());
    }

    @Override
    public int compareTo(Partition other) {
      int byTopic = topic.compareTo(other.topic);
      return byTopic != 0 ? byTopic : Integer.compare(number, other.number);
    }
  }
}
