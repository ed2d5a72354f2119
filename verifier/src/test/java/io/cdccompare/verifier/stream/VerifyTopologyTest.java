package io.cdccompare.verifier.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.chunk.ComparedRange;
import io.cdccompare.core.stream.SourcePosition;
import io.cdccompare.core.verdict.ChunkVerdict;
import io.cdccompare.core.verdict.PartitionVerdict;
import io.cdccompare.core.verdict.VerdictId;
import io.cdccompare.jdbc.db.TargetSchemaException;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.TaskKind;
import io.cdccompare.verifier.apply.RecordPosition;
import io.cdccompare.verifier.apply.RowChange;
import io.cdccompare.verifier.verify.ChunkCheck;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** The apply+verify topology's record logic, on a target and hashes topic in memory. */
class VerifyTopologyTest {

  @Test
  void changesAreAppliedInStreamOrderWithTheirPositionsAndValues() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // When a row is inserted, updated and deleted
      d.change("c", 1, "a");
      d.change("u", 1, "b");
      d.change("d", 1, null);
      d.tombstone(1);

      // Then the target got an upsert of each after image, a delete by key, the tombstone passed
      List<RowChange> changes = d.target.changes();
      assertThat(changes)
          .extracting(RowChange::operation, RowChange::key, RowChange::values)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  RowChange.Operation.UPSERT, "1", Map.of("id", 1, "name", "a")),
              org.assertj.core.groups.Tuple.tuple(
                  RowChange.Operation.UPSERT, "1", Map.of("id", 1, "name", "b")),
              org.assertj.core.groups.Tuple.tuple(RowChange.Operation.DELETE, "1", Map.of()));
      assertThat(changes.get(0).table()).isEqualTo(FakeTarget.TABLE);
      assertThat(changes)
          .extracting(RowChange::position)
          .containsExactly(
              new RecordPosition(VerifyDriver.TOPIC, 0, 0, new SourcePosition(1000, 900, 42)),
              new RecordPosition(VerifyDriver.TOPIC, 0, 1, new SourcePosition(1001, 901, 42)),
              new RecordPosition(VerifyDriver.TOPIC, 0, 2, new SourcePosition(1002, 902, 42)));
      assertThat(d.target.passed()).extracting(RecordPosition::offset).containsExactly(3L);
    }
  }

  @Test
  void aPendingBatchIsAppliedBeforeStreamsCommitsItsOffsetsNotAfter() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a batch size of 500 and an hour of apply delay: nothing but a commit applies a change
      assertThat(d.settings.apply().batchSize()).isEqualTo(500);

      // When one change is processed (the test driver commits after every record)
      d.change("c", 1, "a");

      // Then it was applied while Streams prepared the commit (flushing store caches), which is
      // before the offsets are committed; not in postCommit, which runs after
      assertThat(d.target.batches).hasSize(1);
      assertThat(d.target.applyStacks.get(0))
          .anyMatch(frame -> frame.endsWith("StreamTask.prepareCommit"))
          .noneMatch(frame -> frame.endsWith("StreamTask.postCommit"))
          .anyMatch(frame -> frame.endsWith("TargetStore.flushCache"));
    }
  }

  @Test
  void closeAppliesEverythingBeforeItThenVerifiesWithTheKeysChangedSinceOpen() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a chunk open while key 2 changes; key 1 changed before the OPEN
      d.change("c", 1, "a");
      long open = d.open(0);
      d.change("u", 2, "x");
      d.target.verifyAnswer = ChunkVerdict.of(1, List.of("3"), List.of(), List.of(), List.of("2"));

      // When its CLOSE arrives
      Map<String, byte[]> hashes = new LinkedHashMap<>();
      hashes.put("1", md5("1,a"));
      hashes.put("2", md5("2,b"));
      hashes.put("3", md5("3,c"));
      long close = d.close(0, "1", "3", hashes);

      // Then every record before the marker was applied before the target was read
      assertThat(d.target.calls).endsWith("apply", "verify", "apply");
      assertThat(d.target.changes()).extracting(RowChange::key).containsExactly("1", "2");
      assertThat(d.target.passed()).extracting(RecordPosition::offset).containsExactly(open);

      // And the chunk was verified with its hashes, its range and key 2 in flight
      ChunkCheck check = d.target.checks.get(0);
      assertThat(check.inFlightKeys()).containsExactly("2");
      assertThat(check.chunkHashes()).containsOnlyKeys("1", "2", "3");
      assertThat(check.chunkHashes().get("2")).isEqualTo(md5("2,b"));
      assertThat(check.range()).isEqualTo(ComparedRange.between("1", "3"));
      assertThat(check.partition()).isZero();
      assertThat(check.partitionCount()).isEqualTo(1);
      assertThat(check.keyColumns()).containsExactly("id");
      assertThat(check.plan()).isEqualTo(VerifyDriver.SHAPE.plan());

      // And the verdict was stored with the checkpoint moving past the marker
      PartitionVerdict stored = d.target.verdicts.get(id(d, 0));
      assertThat(stored.markerOffset()).isEqualTo(close);
      assertThat(d.target.batches.get(d.target.batches.size() - 1).verdicts())
          .singleElement()
          .satisfies(v -> assertThat(v.marker().offset()).isEqualTo(close));

      // And the result went to the results topic under its key
      List<TestRecord<String, ChunkResult>> results = d.resultRecords();
      assertThat(results).hasSize(1);
      assertThat(results.get(0).key())
          .isEqualTo("full/" + VerifyDriver.RUN + "/public.items/0/t1/0");
      ChunkResult result = results.get(0).value();
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getCounts().getMatched()).isEqualTo(1);
      assertThat(result.getCounts().getFailed()).isEqualTo(1);
      assertThat(result.getCounts().getInFlight()).isEqualTo(1);
      assertThat(result.getFailedKeys()).containsExactly("3");
      assertThat(result.getInFlightKeys()).containsExactly("2");
      assertThat(result.getMarkerOffset()).isEqualTo(close);
      assertThat(result.getPartitionCount()).isEqualTo(1);
      assertThat(result.getTarget()).isEqualTo("t1");
      assertThat(result.getTopic()).isEqualTo(VerifyDriver.TOPIC);
      assertThat(result.getVerifiedAt()).isEqualTo(VerifyDriver.NOW);
    }
  }

  @Test
  void theCloseMarkersRangeIsWhatTheTargetReads() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given the table's last chunk at deep=100: the keys after 3, open above
      d.closeRange =
          io.cdccompare.schemas.avro.ComparedRange.newBuilder()
              .setLower("3")
              .setLowerInclusive(false)
              .setUpper(null)
              .build();
      d.open(1);
      d.target.verifyAnswer = ChunkVerdict.empty();

      // When its CLOSE arrives
      Map<String, byte[]> hashes = new LinkedHashMap<>();
      hashes.put("4", md5("4,d"));
      d.close(1, "4", "4", hashes);

      // Then the target is read over exactly that range, not [first compared key, last key]
      assertThat(d.target.checks)
          .singleElement()
          .satisfies(check -> assertThat(check.range()).isEqualTo(ComparedRange.after("3", null)));
    }
  }

  @Test
  void aReplayedOpenKeepsTheKeysCollectedSinceTheFirst() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given an OPEN, a change, the same OPEN again (a replay), another change
      d.open(0);
      d.change("u", 2, "x");
      d.open(0);
      d.change("u", 3, "y");

      // When the chunk closes
      d.close(0, "1", "3", Map.of());

      // Then both changed keys are in flight
      assertThat(d.target.checks.get(0).inFlightKeys()).containsExactlyInAnyOrder("2", "3");
    }
  }

  @Test
  void keysChangedAfterAChunkClosedAreNotInFlightForTheNext() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0 with key 2 in flight, closed; then key 5 changes before chunk 1 opens
      d.open(0);
      d.change("u", 2, "x");
      d.close(0, "1", "3", Map.of());
      d.change("u", 5, "z");
      d.open(1);
      d.change("u", 6, "w");

      // When chunk 1 closes
      d.close(1, "4", "6", Map.of());

      // Then only the key changed while it was open is in flight
      assertThat(d.target.checks.get(1).inFlightKeys()).containsExactly("6");
    }
  }

  @Test
  void theNextChunkMayOpenBeforeThePreviousClosesEachKeepingItsOwnKeys() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0 open while key 2 changes; chunk 1 opens before chunk 0 closes
      d.open(0);
      d.change("u", 2, "x");
      d.open(1);
      d.change("u", 5, "y");

      // When chunk 0 closes, then key 6 changes and chunk 1 closes
      d.close(0, "1", "3", Map.of());
      d.change("u", 6, "z");
      d.close(1, "4", "6", Map.of());

      // Then chunk 0 was open for keys 2 and 5, chunk 1 for 5 and 6 only, and both were verified
      assertThat(d.target.checks).hasSize(2);
      assertThat(d.target.checks.get(0).inFlightKeys()).containsExactlyInAnyOrder("2", "5");
      assertThat(d.target.checks.get(1).inFlightKeys()).containsExactlyInAnyOrder("5", "6");
      assertThat(d.results()).extracting(ChunkResult::getChunk).containsExactly(0L, 1L);
    }
  }

  @Test
  void aChunkTwoOpensBehindIsForgottenAsNeverClosed() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0 open while key 2 changes, then chunks 1 and 2 open without chunk 0 closing
      // (a stopped run resumed elsewhere could do this; a running one never has three open)
      d.open(0);
      d.change("u", 2, "x");
      d.open(1);
      d.open(2);
      d.change("u", 9, "y");

      // When a CLOSE of chunk 0 comes after all (a late copy) and chunk 1 closes
      d.close(0, "1", "3", Map.of());
      d.close(1, "4", "6", Map.of());

      // Then chunk 0 was forgotten at the OPEN of chunk 2 (no keys in flight, no longer open),
      // while chunk 1, within the window, kept its keys
      assertThat(d.target.checks.get(0).inFlightKeys()).isEmpty();
      assertThat(d.target.checks.get(1).inFlightKeys()).containsExactly("9");
    }
  }

  @Test
  void aReplayedCloseReEmitsTheStoredVerdictWithoutVerifyingAgain() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0 verified once
      d.open(0);
      d.target.verifyAnswer = ChunkVerdict.of(2, List.of(), List.of("3"), List.of(), List.of());
      d.close(0, "1", "3", Map.of("1", md5("1,a")));
      ChunkResult first = d.results().get(0);

      // When its CLOSE is read again (a replay after a crash) while the target has moved on
      d.target.verifyAnswer = ChunkVerdict.of(3, List.of(), List.of(), List.of(), List.of());
      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      // Then the stored verdict is emitted again, unchanged, and the target was not read again
      assertThat(d.target.checks).hasSize(1);
      ChunkResult again = d.results().get(0);
      assertThat(again.getCounts()).isEqualTo(first.getCounts());
      assertThat(again.getMissedKeys()).containsExactly("3");
      assertThat(again.getMarkerOffset()).isEqualTo(first.getMarkerOffset());
    }
  }

  @Test
  void aLostHashRecordMakesTheChunkUnverifiableNotDifferent() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // When a CLOSE points at a hash record that is not on the hashes topic
      d.open(0);
      d.closeMarker(0, "1", "3", 77);

      // Then the chunk is UNVERIFIABLE, saying why, and no row was compared
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError()).contains("no hash record at " + VerifyDriver.HASHES + "-0@77");
      assertThat(result.getCounts().getMatched()).isZero();
      assertThat(d.target.checks).isEmpty();
      assertThat(d.target.verdicts.get(id(d, 0)).state())
          .isEqualTo(io.cdccompare.core.verdict.ChunkState.UNVERIFIABLE);
    }
  }

  @Test
  void aTruncatedHashRecordMakesTheChunkUnverifiableNamingItsPlace() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0's hash record cut to half its bytes on the hashes topic (a broken writer,
      // a disk fault)
      byte[] whole = d.hashRecord(0, "1", "3", Map.of("1", md5("1,a"), "3", md5("3,c")));
      long at = d.putHashBytes(java.util.Arrays.copyOf(whole, whole.length / 2));

      // When its CLOSE points at it
      d.open(0);
      d.closeMarker(0, "1", "3", at);

      // Then the chunk is UNVERIFIABLE, naming the record's place and that it cannot be read, and
      // no row was compared or judged different
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError())
          .contains("the hash record at " + VerifyDriver.HASHES + "-0@" + at + " cannot be read");
      assertThat(result.getCounts().getFailed()).isZero();
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void aHashRecordOfAnotherChunkIsNotUsed() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given chunk 0's hash record at offset 0 of the hashes topic
      d.open(0);
      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      // When chunk 1's CLOSE points at that same record (overwritten, or a writer's mistake)
      d.open(1);
      d.closeMarker(1, "4", "6", 0);

      // Then chunk 1 is UNVERIFIABLE
      List<ChunkResult> results = d.results();
      assertThat(results.get(1).getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(results.get(1).getError()).contains("chunk 0", "not to the chunk of this marker");
    }
  }

  @Test
  void aMissingTargetColumnIsSchemaDriftNotDifferences() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a target table without the compared column "name"
      d.target.verifyAnswer =
          TargetSchemaException.missingColumn("postgresql", FakeTarget.TABLE, "name");

      // When a chunk closes
      d.open(0);
      d.close(0, "1", "3", Map.of("1", md5("1,a")));

      // Then its result is SCHEMA_DRIFT naming the column
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.SCHEMA_DRIFT);
      assertThat(result.getError()).contains("public.items", "'name'");
      assertThat(result.getCounts().getFailed()).isZero();
    }
  }

  @Test
  void aPoisonRecordStopsTheTaskNamingTopicPartitionAndOffset() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a good change first
      d.change("c", 1, "a");

      // When a value that is not a change envelope arrives, the task stops, naming it
      assertThatThrownBy(() -> d.raw(2, "{not json".getBytes(StandardCharsets.UTF_8)))
          .hasStackTraceContaining(
              "UNVERIFIABLE: poison record at topic "
                  + VerifyDriver.TOPIC
                  + ", partition 0, offset 1");

      // And nothing of it reached the target
      assertThat(d.target.changes()).extracting(RowChange::key).containsExactly("1");
    }
  }

  @Test
  void aRecheckChunkComparesOnlyTheKeysItsRecordsGiveThisTarget() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a recheck chunk: keys 1-4 held by the source, 5 and 6 not; target t1 (this one)
      // compares 1, 2 and 5, target t2 compares 3, 4 and 6
      d.taskKind = TaskKind.RECHECK;
      Map<String, byte[]> hashes = hashes("1", "2", "3", "4");
      Map<String, List<String>> targetKeys =
          Map.of("t1", List.of("1", "2", "5"), "t2", List.of("3", "4", "6"));

      // And a target where 1 matches, 2 and 3 differ, 4 is missing, 5 and 6 are there
      d.target.rows =
          Map.of(
              "1", md5("1,a"),
              "2", md5("2,changed"),
              "3", md5("3,changed"),
              "5", md5("5,e"),
              "6", md5("6,f"));

      // When the chunk closes
      d.open(0);
      d.closeKeyList(
          0, List.of(new VerifyDriver.KeyListPart(hashes, List.of("5", "6"), targetKeys)));

      // Then t1 looked up its own keys only, with no range
      ChunkCheck check = d.target.checks.get(0);
      assertThat(check.keyList()).isTrue();
      assertThat(check.range()).isNull();
      assertThat(check.chunkHashes()).containsOnlyKeys("1", "2");
      assertThat(check.absentKeys()).containsExactly("5");

      // And its verdict holds t1's outcomes only: 1 matched, 2 failed, 5 extra; t2's differences
      // (3 failed, 4 missed, 6 extra) are not counted here
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getCounts().getMatched()).isEqualTo(1);
      assertThat(result.getFailedKeys()).containsExactly("2");
      assertThat(result.getMissedKeys()).isEmpty();
      assertThat(result.getExtraKeys()).containsExactly("5");
      assertThat(result.getInFlightKeys()).isEmpty();
    }
  }

  @Test
  void anIncrementalChunkWithoutTargetKeysComparesEveryKeyOnEveryTarget() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given an incremental chunk of keys 1-3 (held) and 5 (not held), no keys per target; key 3
      // changes between its markers
      d.taskKind = TaskKind.INCREMENTAL;
      d.target.rows = Map.of("1", md5("1,a"), "3", md5("3,x"), "5", md5("5,e"));
      d.open(0);
      d.change("u", 3, "x");

      // When the chunk closes
      d.closeKeyList(
          0, List.of(new VerifyDriver.KeyListPart(hashes("1", "2", "3"), List.of("5"), Map.of())));

      // Then every key was compared: 1 matched, 2 missed, 3 in flight, 5 extra
      assertThat(d.target.checks.get(0).chunkHashes()).containsOnlyKeys("1", "2", "3");
      assertThat(d.target.checks.get(0).absentKeys()).containsExactly("5");
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getCounts().getMatched()).isEqualTo(1);
      assertThat(result.getMissedKeys()).containsExactly("2");
      assertThat(result.getInFlightKeys()).containsExactly("3");
      assertThat(result.getExtraKeys()).containsExactly("5");
    }
  }

  @Test
  void aRepairChunkDeletesTheAbsentKeysOfThisTargetThatNoChangeTouched() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a repair chunk: key 1 held by the source, 5, 6 and 7 not; this target (t1) checks
      // 1, 5 and 6, target t2 checks 7; the target holds all four, and key 6 is inserted again on
      // the source between the chunk's markers
      d.taskKind = TaskKind.REPAIR;
      d.target.rows =
          new java.util.HashMap<>(
              Map.of("1", md5("1,a"), "5", md5("5,e"), "6", md5("6,f"), "7", md5("7,g")));
      d.open(0);
      d.change("c", 6, "f");

      // When the chunk closes
      d.closeKeyList(
          0,
          List.of(
              new VerifyDriver.KeyListPart(
                  hashes("1"),
                  List.of("5", "6", "7"),
                  Map.of("t1", List.of("1", "5", "6"), "t2", List.of("7")))));

      // Then t1 deleted key 5 only (6 is in flight, 7 is t2's), before it verified the chunk
      assertThat(d.target.removed).containsExactly(List.of("5"));
      assertThat(d.target.calls.indexOf("remove")).isLessThan(d.target.calls.indexOf("verify"));
      assertThat(d.target.rows).containsOnlyKeys("1", "6", "7");

      // And the verdict shows 5 repaired (no difference), 6 in flight
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getExtraKeys()).isEmpty();
      assertThat(result.getInFlightKeys()).containsExactly("6");
    }
  }

  @Test
  void aRecheckChunkDeletesNothing() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a recheck chunk whose key 5 the source lacks and the target holds
      d.taskKind = TaskKind.RECHECK;
      d.target.rows = new java.util.HashMap<>(Map.of("5", md5("5,e")));

      // When it closes
      d.open(0);
      d.closeKeyList(0, List.of(new VerifyDriver.KeyListPart(Map.of(), List.of("5"), Map.of())));

      // Then nothing was deleted and 5 is extra
      assertThat(d.target.removed).isEmpty();
      assertThat(d.results().get(0).getExtraKeys()).containsExactly("5");
    }
  }

  @Test
  void aRecheckChunkWithoutAnEntryForThisTargetComparesNoKey() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a recheck chunk whose keys are all for target t2, on a target that lacks key 1 and
      // has key 5
      d.taskKind = TaskKind.RECHECK;
      d.target.rows = Map.of("5", md5("5,e"));

      // When it closes on t1
      d.open(0);
      d.closeKeyList(
          0,
          List.of(
              new VerifyDriver.KeyListPart(
                  hashes("1"), List.of("5"), Map.of("t2", List.of("1", "5")))));

      // Then t1 compared no key: an empty VERIFIED verdict
      assertThat(d.target.checks.get(0).chunkHashes()).isEmpty();
      assertThat(d.target.checks.get(0).absentKeys()).isEmpty();
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.VERIFIED);
      assertThat(result.getCounts().getMatched()).isZero();
      assertThat(result.getMissedKeys()).isEmpty();
      assertThat(result.getExtraKeys()).isEmpty();
    }
  }

  @Test
  void keysPerTargetAreMergedOverTheParts() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // Given a recheck chunk in two parts; part 0 gives t1 key 3, which part 1 holds
      d.taskKind = TaskKind.RECHECK;
      d.target.rows = Map.of("1", md5("1,a"), "3", md5("3,c"));

      // When it closes
      d.open(0);
      d.closeKeyList(
          0,
          List.of(
              new VerifyDriver.KeyListPart(
                  hashes("1", "2"), List.of(), Map.of("t1", List.of("1", "3"))),
              new VerifyDriver.KeyListPart(
                  hashes("3"), List.of("5"), Map.of("t1", List.of("5"), "t2", List.of("2")))));

      // Then t1 compared 1, 3 and 5 of both parts, not t2's key 2
      ChunkCheck check = d.target.checks.get(0);
      assertThat(check.chunkHashes()).containsOnlyKeys("1", "3");
      assertThat(check.absentKeys()).containsExactly("5");
      ChunkResult result = d.results().get(0);
      assertThat(result.getCounts().getMatched()).isEqualTo(2);
      assertThat(result.getMissedKeys()).isEmpty();
    }
  }

  @Test
  void anAbsentKeyThatIsAlsoHashedMakesTheChunkUnverifiable() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // When a recheck chunk lists key 1 as held and as absent
      d.taskKind = TaskKind.RECHECK;
      d.open(0);
      d.closeKeyList(
          0, List.of(new VerifyDriver.KeyListPart(hashes("1", "2"), List.of("1"), Map.of())));

      // Then it is UNVERIFIABLE, saying why, and the target was not read
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError()).contains("key '1' both as hashed and as absent");
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void aTargetKeyNeitherHashedNorAbsentMakesTheChunkUnverifiable() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // When a recheck chunk gives target t1 key 9, which its records do not hold
      d.taskKind = TaskKind.RECHECK;
      d.open(0);
      d.closeKeyList(
          0,
          List.of(
              new VerifyDriver.KeyListPart(
                  hashes("1"), List.of(), Map.of("t1", List.of("1", "9")))));

      // Then it is UNVERIFIABLE, naming target and key, and the target was not read
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError())
          .contains("give target 't1' key '9', which is neither hashed nor absent");
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void aKeyListChunkWithAComparedRangeIsUnverifiable() throws Exception {
    try (VerifyDriver d = new VerifyDriver()) {
      // When a recheck chunk's CLOSE carries a compared key range
      d.taskKind = TaskKind.RECHECK;
      d.closeRange =
          io.cdccompare.schemas.avro.ComparedRange.newBuilder()
              .setLower("1")
              .setLowerInclusive(true)
              .setUpper("3")
              .build();
      d.open(0);
      d.closeKeyList(0, List.of(new VerifyDriver.KeyListPart(hashes("1"), List.of(), Map.of())));

      // Then it is UNVERIFIABLE: what it compares would be ambiguous
      ChunkResult result = d.results().get(0);
      assertThat(result.getState()).isEqualTo(ChunkState.UNVERIFIABLE);
      assertThat(result.getError()).contains("RECHECK chunk carries a compared key range");
      assertThat(d.target.checks).isEmpty();
    }
  }

  @Test
  void everyNodeAndStoreIsNamed() {
    // When the topology is described
    VerifierSettings settings =
        VerifierSettings.builder("t1")
            .bootstrapServers("unused:9092")
            .registryUrl("mock://named")
            .topicPrefix("p")
            .table(io.cdccompare.core.table.TableName.parse("public.items"))
            .table(io.cdccompare.core.table.TableName.parse("sales.orders"))
            .target("jdbc:mariadb://unused/db", "u", "p")
            .build();
    Topology topology = VerifyTopologyFactory.build(settings);
    TopologyDescription description = topology.describe();

    // Then its nodes and stores have the names the internal topics depend on
    TopologyDescription.Subtopology only = description.subtopologies().iterator().next();
    assertThat(only.nodes())
        .extracting(TopologyDescription.Node::name)
        .containsExactlyInAnyOrder("verify-source", "verify-apply", "verify-results");
    TopologyDescription.Source source =
        (TopologyDescription.Source)
            only.nodes().stream().filter(n -> n.name().equals("verify-source")).findFirst().get();
    assertThat(source.topicSet()).containsExactlyInAnyOrder("p.public.items", "p.sales.orders");
    TopologyDescription.Processor processor =
        (TopologyDescription.Processor)
            only.nodes().stream().filter(n -> n.name().equals("verify-apply")).findFirst().get();
    assertThat(processor.stores()).containsExactlyInAnyOrder("verify-target", "verify-open-chunks");
  }

  private static VerdictId id(VerifyDriver d, long chunk) {
    return new VerdictId(
        d.settings.applicationId(), VerifyDriver.TASK, VerifyDriver.RUN, "public.items", chunk, 0);
  }

  /** Hashes of rows {@code id,<letter>}: key 1 → md5("1,a"), key 2 → md5("2,b"), … */
  private static Map<String, byte[]> hashes(String... keys) {
    Map<String, byte[]> hashes = new LinkedHashMap<>();
    for (String key : keys) {
      hashes.put(key, md5(key + "," + (char) ('a' + Integer.parseInt(key) - 1)));
    }
    return hashes;
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
