package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.table.TableName;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.schemas.avro.AlertCode;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A verify-only target (docs/design.md, "Verify-only targets"): the topology applies nothing, and
 * each CLOSE waits for the followed group, on a target, hashes topic, group and clock in memory.
 */
class VerifyOnlyTopologyTest {
  private static final String GROUP = "sink-b";
  private static final String TOPIC = VerifyDriver.TOPIC;

  @Test
  void changesArePassedNeverApplied() throws Exception {
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 100L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      // When a row is inserted, updated and deleted
      d.change("c", 1, "a");
      d.change("u", 1, "b");
      d.change("d", 1, null);
      d.tombstone(1);

      // Then no change reached the target's tables; the verifier's checkpoint moved past each
      assertThat(d.target.batches).isNotEmpty();
      assertThat(d.target.changes()).isEmpty();
      assertThat(d.target.passed())
          .extracting(RecordPosition::offset)
          .containsExactly(0L, 1L, 2L, 3L);
      assertThat(group.reads).isZero();
    }
  }

  @Test
  void aCloseWaitsForTheGroupThenCountsTheKeysItMayHaveAppliedAfterTheMarkerInFlight()
      throws Exception {
    // Given a group that reads the marker's offset 3 only on its third look
    FakeFollowedGroup group =
        new FakeFollowedGroup(GROUP).answer(Map.of(0, 1L), Map.of(0, 3L), Map.of(0, 6L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.change("c", 1, "a");
      d.open(0);
      d.change("u", 2, "x");
      // the applier is ahead: key 7 at offset 4 and another chunk's marker at 5 committed, key 8
      // at 6 perhaps written but not committed; the partition ends after it
      d.reader.putKey(TOPIC, 0, 4, "7");
      d.reader.putKey(TOPIC, 0, 5, null);
      d.reader.putKey(TOPIC, 0, 6, "8");
      d.target.verifyAnswer = ChunkVerdict.of(1, List.of(), List.of(), List.of(), List.of("2"));

      // When its CLOSE arrives at offset 3
      long close = d.close(0, "1", "3", Map.of("1", md5("1,a"), "2", md5("2,b")));

      // Then it waited two polls, until the committed offset 6 was above 3
      assertThat(close).isEqualTo(3);
      assertThat(group.reads).isEqualTo(3);
      assertThat(d.ticker.pauses).isEqualTo(2);

      // And verified with key 2 (changed since the OPEN), 7 and 8 (after the marker) in flight
      assertThat(d.reader.keyReads).containsExactly(TOPIC + "-0:[4,7)");
      ChunkCheck check = d.target.checks.get(0);
      assertThat(check.inFlightKeys()).containsExactlyInAnyOrder("2", "7", "8");

      // And wrote no row: only checkpoints and the verdict
      assertThat(d.target.changes()).isEmpty();
      assertThat(d.target.calls).endsWith("verify", "apply");
      assertThat(d.target.verdicts.get(id(d, 0)).state())
          .isEqualTo(io.cdccompare.core.verdict.ChunkState.VERIFIED);
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getMarkerOffset()).isEqualTo(close);
      assertThat(d.alerts).isEmpty();
    }
  }

  @Test
  void aKeyAppendedWhileTheTargetWasReadIsInFlightNotADifference() throws Exception {
    // Given a group past the marker, and the partition growing by key 9 during the target read
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 4L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.open(0);
      d.change("u", 2, "x");
      d.reader.putKey(TOPIC, 0, 4, "9");
      d.reader.ends.add(4L);
      d.reader.ends.add(5L);
      d.target.verifyAnswer =
          ChunkVerdict.of(1, List.of("9", "5"), List.of(), List.of(), List.of("2"));

      // When the CLOSE at offset 2 is verified
      d.close(0, "1", "9", Map.of("1", md5("1,a")));

      // Then key 9 (failed on the target, but changed meanwhile) is in flight; key 5 stays failed
      assertThat(d.reader.keyReads).containsExactly(TOPIC + "-0:[3,4)", TOPIC + "-0:[4,5)");
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getFailedKeys()).containsExactly("5");
      assertThat(result.getInFlightKeys()).containsExactly("2", "9");
      assertThat(d.target.verdicts.get(id(d, 0)).verdict().inFlightKeys())
          .containsExactly("2", "9");
    }
  }

  @Test
  void aGroupThatStandsStillStallsTheChunkAndTheStreamGoesOn() throws Exception {
    // Given a group that stays at offset 2, before the CLOSE at 3
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 2L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.change("c", 1, "a");
      d.open(0);
      d.change("u", 2, "x");

      // When its CLOSE arrives
      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      // Then after the stall timeout of 5 s the chunk is STALLED, not verified and not different
      assertThat(d.ticker.pauses).isEqualTo(50);
      assertThat(d.target.checks).isEmpty();
      List<ChunkResult> results = d.results();
      assertThat(results).hasSize(1);
      ChunkResult stalled = results.get(0);
      assertThat(stalled.getState()).isEqualTo(ChunkState.STALLED);
      assertThat(stalled.getError())
          .isEqualTo(
              "consumer group sink-b has not passed the CLOSE marker at offset 3 of topic"
                  + " p.public.items partition 0: its committed offset stands at 2 since 5000 ms"
                  + " (an offset above 3 was waited for)");
      assertThat(stalled.getCounts().getMatched()).isZero();
      PartitionVerdict stored = d.target.verdicts.get(id(d, 0));
      assertThat(stored.state()).isEqualTo(io.cdccompare.core.verdict.ChunkState.STALLED);

      // And a STALLED alert names the group, the topic, the partition and both offsets
      assertThat(d.alerts)
          .singleElement()
          .satisfies(
              alert -> {
                assertThat(alert.code()).isEqualTo(AlertCode.STALLED);
                assertThat(alert.at().offset()).isEqualTo(3);
                assertThat(alert.at().partition()).isZero();
                assertThat(alert.at().topic()).isEqualTo(TOPIC);
                assertThat(alert.table()).isEqualTo(TableName.parse("public.items"));
                assertThat(alert.message())
                    .contains("consumer group sink-b", "offset 3", "partition 0", "stands at 2");
              });

      // When the applier moves on and the next chunk closes
      group.answer(Map.of(0, 20L));
      d.change("c", 4, "d");
      d.open(1);
      d.close(1, "4", "6", Map.of("4", md5("4,d")));

      // Then the verifier went on with it
      assertThat(d.results())
          .extracting(ChunkResult::getState)
          .containsExactly(ChunkState.VERIFIED);
      assertThat(d.target.passed()).extracting(RecordPosition::offset).contains(4L, 5L);
    }
  }

  @Test
  void aGroupWithoutCommittedOffsetIsNeverTakenAsPassed() throws Exception {
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of());
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.open(0);

      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.STALLED);
      assertThat(result.getError())
          .isEqualTo(
              "consumer group sink-b has no committed offset for topic p.public.items"
                  + " partition 0");
      assertThat(d.alerts)
          .extracting(VerifyDriver.RaisedAlert::code)
          .containsExactly(AlertCode.STALLED);
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void aGroupThatWentBackIsNotTakenAsPassedEvenAboveTheMarker() throws Exception {
    // Given a first chunk verified once the group reached offset 10
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 10L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.open(0);
      d.close(0, "1", "3", Map.of("1", md5("1,a")));
      assertThat(d.results())
          .extracting(ChunkResult::getState)
          .containsExactly(ChunkState.VERIFIED);

      // When the group is reset back to offset 5, and a second chunk closes at offset 3
      group.answer(Map.of(0, 5L));
      d.open(1);
      long close = d.close(1, "4", "6", Map.of("4", md5("4,d")));

      // Then 5 is above the marker, but below what the group had reached: no guess, STALLED
      assertThat(close).isEqualTo(3);
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.STALLED);
      assertThat(result.getError())
          .isEqualTo(
              "consumer group sink-b went back from offset 10 to 5 on topic p.public.items"
                  + " partition 0");
      assertThat(d.target.checks).hasSize(1);
    }
  }

  @Test
  void keysAfterTheMarkerThatCannotBeReadMakeTheChunkUnverifiable() throws Exception {
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 9L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      d.reader.keysUnreadable = true;
      d.open(0);

      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError())
          .contains("from offset 2 to 8", "consumer group sink-b may have applied already");
      assertThat(d.reader.keyReads).containsExactly(TOPIC + "-0:[2,9)");
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void aRepairChunkDeletesNothingOnAVerifyOnlyTarget() throws Exception {
    FakeFollowedGroup group = new FakeFollowedGroup(GROUP).answer(Map.of(0, 9L));
    try (VerifyDriver d = new VerifyDriver(group)) {
      // Given a repair chunk whose key 5 the source did not hold, still on the target
      d.taskKind = TaskKind.REPAIR;
      d.target.rows = new java.util.HashMap<>(Map.of("5", md5("5,e")));
      d.open(0);

      // When it closes
      d.closeKeyList(0, List.of(new VerifyDriver.KeyListPart(Map.of(), List.of("5"), Map.of())));

      // Then the verifier removed nothing: the row is the applier's to delete
      assertThat(d.target.removed).isEmpty();
      assertThat(d.target.calls).doesNotContain("remove");
      assertThat(d.target.rows).containsKey("5");
      assertThat(d.results())
          .extracting(ChunkResult::getState)
          .containsExactly(ChunkState.VERIFIED);
    }
  }

  @Test
  void aRepairChunkDeletesOnAnApplyVerifyTarget() throws Exception {
    // The same chunk on an apply+verify target: proves the test above can fail
    try (VerifyDriver d = new VerifyDriver()) {
      d.taskKind = TaskKind.REPAIR;
      d.target.rows = new java.util.HashMap<>(Map.of("5", md5("5,e")));
      d.open(0);

      d.closeKeyList(0, List.of(new VerifyDriver.KeyListPart(Map.of(), List.of("5"), Map.of())));

      assertThat(d.target.removed).containsExactly(List.of("5"));
    }
  }

  private static VerdictId id(VerifyDriver d, long chunk) {
    return new VerdictId(
        d.settings.applicationId(), VerifyDriver.TASK, VerifyDriver.RUN, "public.items", chunk, 0);
  }

  private static byte[] md5(String text) {
    try {
      return java.security.MessageDigest.getInstance("MD5")
          .digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
