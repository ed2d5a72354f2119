package io.cdccompare.verifier.stream;

import io.cdccompare.core.compare.ComparedShape;
import io.cdccompare.core.key.KeyCodec;
import io.cdccompare.core.rowhash.HashFunction;
import io.cdccompare.core.rowhash.plan.HashedColumn;
import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.TargetSchemaException;
import io.cdccompare.schemas.MarkerCodec;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetTable;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.sql.SQLException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides one chunk's verdict in one partition at its CLOSE marker, everything before the marker
 * being applied: reads the chunk's compared shape from the marker, loads the partition's hashes,
 * and verifies the target table over the compared key range with the keys in flight. A RECHECK,
 * INCREMENTAL or REPAIR chunk is a key-list chunk: no range, only the keys its hash records give
 * this target (by name), each looked up by key; a REPAIR chunk first deletes those of its keys the
 * source lacked and no change touched ({@link #removeAbsent}).
 *
 * <p>A chunk that cannot be compared gets a verdict that says why instead of differences: {@link
 * ChunkState#SCHEMA_DRIFT} when the target's columns or key do not match what the source compared
 * (a missing column, another key), {@link ChunkState#UNVERIFIABLE} when the hashes or the note are
 * missing or unreadable, the target table is missing or a column type cannot be compared. A failing
 * target ({@link SQLException}, after the retries of {@link RetryingTarget}) is no verdict here:
 * the processor decides what it means (a {@link TargetUnansweredException} of a target that still
 * answers makes the chunk UNVERIFIABLE; anything else stops the task, and the marker is verified
 * again after the restart).
 */
final class ChunkJudge {
  private final String targetName;
  private final Target target;
  private final ChunkHashLoader hashes;
  private final Clock clock;
  private final boolean writesTarget;

  /**
   * @param targetName the target's name, by which a key-list chunk's {@code targetKeys} give the
   *     keys it compares
   * @param writesTarget false for a verify-only target: a REPAIR chunk deletes nothing there (its
   *     absent keys that the target still holds are found extra)
   */
  ChunkJudge(
      String targetName, Target target, ChunkHashLoader hashes, Clock clock, boolean writesTarget) {
    this.targetName = targetName;
    this.target = target;
    this.hashes = hashes;
    this.clock = clock;
    this.writesTarget = writesTarget;
  }

  PartitionVerdict judge(
      VerdictId id, Marker close, RecordPosition marker, TargetTable table, Set<String> inFlight)
      throws SQLException {
    long markerOffset = marker.offset();
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
    if (isKeyList(close) && close.getComparedRange() != null) {
      return notVerified(
          id,
          markerOffset,
          ChunkState.UNVERIFIABLE,
          "the CLOSE marker of a "
              + close.getTaskKind()
              + " chunk carries a compared key range: a key-list chunk compares its keys only");
    }
    ChunkVerdict verdict;
    try {
      KeyCodec codec = new KeyCodec(shape.keyColumns().stream().map(HashedColumn::type).toList());
      ChunkCheck check =
          isKeyList(close)
              ? keyListCheck(table, shape, keyColumns, codec, loaded, id, close, inFlight)
              : new ChunkCheck(
                  table.table(),
                  shape.plan(),
                  keyColumns,
                  codec,
                  loaded.hashes(),
                  id.tablePartition(),
                  close.getPartitionCount(),
                  MarkerCodec.comparedRange(close),
                  inFlight);
      if (close.getTaskKind() == TaskKind.REPAIR && writesTarget) {
        removeAbsent(table, check, marker);
      }
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
   * Whether the chunk names its keys instead of a key range (docs/design.md, "Key-list chunks").
   */
  static boolean isKeyList(Marker close) {
    return close.getTaskKind() != TaskKind.FULL;
  }

  /**
   * A REPAIR chunk's deletes (docs/design.md, "Repair"): each key this target compares that the
   * source did not hold when the chunk was read, and that no change touched between the chunk's
   * OPEN and CLOSE, is deleted from the target before the chunk is verified. The source read lies
   * between the two notes, so the key was absent at the CLOSE's position: a row inserted on the
   * source before the OPEN was read, one inserted between the notes is in flight and kept, and one
   * inserted after the CLOSE is applied after the delete.
   */
  private void removeAbsent(TargetTable table, ChunkCheck check, RecordPosition marker)
      throws SQLException {
    Set<String> gone = new TreeSet<>(check.absentKeys());
    gone.removeAll(check.inFlightKeys());
    target.removeKeys(table, gone, marker);
  }

  /**
   * The check of a key-list chunk on this target: every hashed and absent key of the partition when
   * the records' {@code targetKeys} are empty, else only those listed under this target's name
   * (none when it has no entry: an empty verdict).
   */
  private ChunkCheck keyListCheck(
      TargetTable table,
      ComparedShape shape,
      List<String> keyColumns,
      KeyCodec codec,
      ChunkHashLoader.Loaded loaded,
      VerdictId id,
      Marker close,
      Set<String> inFlight) {
    Map<String, byte[]> hashed = loaded.hashes();
    Set<String> absent = loaded.absentKeys();
    if (!loaded.targetKeys().isEmpty()) {
      Set<String> mine = loaded.targetKeys().getOrDefault(targetName, Set.of());
      hashed = new HashMap<>(hashed);
      hashed.keySet().retainAll(mine);
      absent = new HashSet<>(absent);
      absent.retainAll(mine);
    }
    return ChunkCheck.keyList(
        table.table(),
        shape.plan(),
        keyColumns,
        codec,
        hashed,
        absent,
        id.tablePartition(),
        close.getPartitionCount(),
        inFlight);
  }

  private PartitionVerdict notVerified(
      VerdictId id, long markerOffset, ChunkState state, String error) {
    return PartitionVerdict.notVerified(id, markerOffset, state, error, clock.instant());
  }
}
