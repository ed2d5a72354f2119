package io.cdccompare.topology.verify;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.db.TargetSchemaException;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * Decides one chunk's verdict in one partition at its CLOSE marker, everything before the marker
 * being applied: reads the chunk's compared shape from the marker, loads the partition's hashes,
 * and verifies the target table over the compared key range with the keys in flight.
 *
 * <p>A chunk that cannot be compared gets a verdict that says why instead of differences: {@link
 * ChunkState#SCHEMA_DRIFT} when the target's columns or key do not match what the source compared
 * (a missing column, another key), {@link ChunkState#UNVERIFIABLE} when the hashes or the note are
 * missing or unreadable, the target table is missing or a column type cannot be compared. A failing
 * target connection ({@link SQLException}) is no verdict: it stops the task, and the marker is
 * verified again after the restart.
 */
final class ChunkJudge {
  private final Target target;
  private final ChunkHashLoader hashes;
  private final Clock clock;

  ChunkJudge(Target target, ChunkHashLoader hashes, Clock clock) {
    this.target = target;
    this.hashes = hashes;
    this.clock = clock;
  }

  PartitionVerdict judge(
      VerdictId id, Marker close, long markerOffset, TargetTable table, Set<String> inFlight)
      throws SQLException {
    if (close.getComparedShape() == null) {
      return notVerified(
          id, markerOffset, ChunkState.UNVERIFIABLE, "the CLOSE marker carries no compared shape");
    }
    ComparedShape shape;
    try {
      shape = ComparedShape.fromJson(close.getComparedShape());
    } catch (IllegalArgumentException e) {
      return notVerified(id, markerOffset, ChunkState.UNVERIFIABLE, e.getMessage());
    }
    if (!shape.fingerprint().equals(close.getColumnFingerprint())) {
      return notVerified(
          id,
          markerOffset,
          ChunkState.UNVERIFIABLE,
          "the compared shape's fingerprint "
              + shape.fingerprint()
              + " differs from the marker's column fingerprint "
              + close.getColumnFingerprint());
    }
    List<String> keyColumns = shape.keyColumns().stream().map(HashedColumn::targetName).toList();
    if (!keyColumns.equals(table.keyColumns())) {
      return notVerified(
          id,
          markerOffset,
          ChunkState.SCHEMA_DRIFT,
          "target table "
              + table.table()
              + " has the key "
              + table.keyColumns()
              + ", the source compared by "
              + keyColumns);
    }
    HashFunction hashFunction;
    try {
      hashFunction = HashFunction.messageDigest(shape.hashFunction());
    } catch (IllegalArgumentException e) {
      return notVerified(id, markerOffset, ChunkState.UNVERIFIABLE, e.getMessage());
    }
    ChunkHashLoader.Loaded loaded = hashes.load(close, id.tablePartition(), shape.hashFunction());
    if (!loaded.found()) {
      return notVerified(id, markerOffset, ChunkState.UNVERIFIABLE, loaded.missing());
    }
    ChunkVerdict verdict;
    try {
      ChunkCheck check =
          new ChunkCheck(
              table.table(),
              shape.plan(),
              keyColumns,
              new KeyCodec(shape.keyColumns().stream().map(HashedColumn::type).toList()),
              loaded.hashes(),
              id.tablePartition(),
              close.getPartitionCount(),
              comparedRange(close),
              inFlight);
      verdict = target.verify(check, shape.format(), hashFunction);
    } catch (TargetSchemaException e) {
      ChunkState state = e.column() == null ? ChunkState.UNVERIFIABLE : ChunkState.SCHEMA_DRIFT;
      return notVerified(id, markerOffset, state, e.getMessage());
    } catch (IllegalArgumentException e) { // also UnsupportedColumnTypeException
      return notVerified(id, markerOffset, ChunkState.UNVERIFIABLE, e.getMessage());
    }
    return PartitionVerdict.verified(id, markerOffset, verdict, clock.instant());
  }

  /**
   * The key range the CLOSE marker compares; a marker of an older producer without one compares
   * {@code [firstComparedKey, lastKey]}, and none when it compared no row.
   */
  static ComparedRange comparedRange(Marker close) {
    io.cdccompare.schemas.avro.ComparedRange range = close.getComparedRange();
    if (range != null) {
      return new ComparedRange(range.getLower(), range.getLowerInclusive(), range.getUpper());
    }
    String first = close.getFirstComparedKey();
    return first == null ? null : ComparedRange.between(first, close.getLastKey());
  }

  private PartitionVerdict notVerified(
      VerdictId id, long markerOffset, ChunkState state, String error) {
    return PartitionVerdict.notVerified(id, markerOffset, state, error, clock.instant());
  }
}
