package io.cdccompare.verifier.stream;

import io.cdccompare.core.verdict.ChunkState;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.schemas.avro.Marker;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.TargetTable;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Decides a CLOSE marker's verdict on a verify-only target (docs/design.md, "Verify-only targets"),
 * where another program applies the changes:
 *
 * <ol>
 *   <li>waits until the followed group's committed offset is above the marker's ({@link
 *       FollowWait}); if it is not in time, the verdict is STALLED with the reason;
 *   <li>reads the keys of the records after the marker up to the partition's end (at least the
 *       committed offset): the applier may have written any of them, committed or not, before the
 *       target is read, so they are in flight too;
 *   <li>judges the chunk ({@link ChunkJudge});
 *   <li>reads the keys of the records appended while the target was read, if any, and counts those
 *       the verdict calls different in flight instead ({@code ChunkVerdict.withInFlight}): a record
 *       the applier wrote before the read ended was appended before it ended.
 * </ol>
 *
 * Keys that cannot be read within {@code hashes.timeout.ms} make the chunk UNVERIFIABLE. The
 * verdict is returned unstored. Runs on its processor's thread; closing it closes the group's
 * client.
 *
 * @param settings the target's settings
 * @param follow the wait for the followed group
 * @param reader reads the keys appended to the table topic
 * @param judge judges the chunk once the group passed
 * @param clock the time of the marker ages
 */
record FollowingJudge(
    VerifierSettings settings, FollowWait follow, TopicReader reader, ChunkJudge judge, Clock clock)
    implements AutoCloseable {

  /**
   * The verdict of the CLOSE marker at {@code position}, appended at {@code appendedAt} (its
   * record's timestamp), with {@code changedSinceOpen} (the keys changed in the partition since the
   * chunk's OPEN) in flight.
   */
  PartitionVerdict judge(
      VerdictId id,
      Marker close,
      RecordPosition position,
      Instant appendedAt,
      TargetTable table,
      Set<String> changedSinceOpen)
      throws SQLException {
    Duration age = Duration.between(appendedAt, clock.instant());
    FollowWait.Outcome outcome =
        follow.awaitPast(
            position.topic(),
            position.partition(),
            position.offset(),
            age.isNegative() ? Duration.ZERO : age);
    if (outcome instanceof FollowWait.Outcome.Stalled stalled) {
      return PartitionVerdict.notVerified(
          id, position.offset(), ChunkState.STALLED, stalled.reason(), clock.instant());
    }
    long end =
        Math.max(
            ((FollowWait.Outcome.Passed) outcome).committed(),
            reader.endOffset(position.topic(), position.partition()));
    Optional<Set<String>> after = keys(position, position.offset() + 1, end);
    if (after.isEmpty()) {
      return unreadable(id, position, position.offset() + 1, end);
    }
    Set<String> inFlight = new LinkedHashSet<>(changedSinceOpen);
    inFlight.addAll(after.get());
    PartitionVerdict verdict = judge.judge(id, close, position, table, inFlight);
    long endAfter = reader.endOffset(position.topic(), position.partition());
    if (verdict.state() != ChunkState.VERIFIED || endAfter <= end) {
      return verdict;
    }
    Optional<Set<String>> during = keys(position, end, endAfter);
    if (during.isEmpty()) {
      return unreadable(id, position, end, endAfter);
    }
    return PartitionVerdict.verified(
        id, position.offset(), verdict.verdict().withInFlight(during.get()), verdict.verifiedAt());
  }

  private Optional<Set<String>> keys(RecordPosition position, long from, long until) {
    return reader.keysBetween(
        position.topic(), position.partition(), from, until, settings.verify().hashesTimeout());
  }

  private PartitionVerdict unreadable(
      VerdictId id, RecordPosition position, long from, long until) {
    return PartitionVerdict.notVerified(
        id,
        position.offset(),
        ChunkState.UNVERIFIABLE,
        "the records of topic "
            + position.topic()
            + " partition "
            + position.partition()
            + " from offset "
            + from
            + " to "
            + (until - 1)
            + ", which consumer group "
            + settings.follow().group()
            + " may have applied already, could not be read within "
            + settings.verify().hashesTimeout().toMillis()
            + " ms",
        clock.instant());
  }

  @Override
  public void close() {
    follow.close();
  }
}
