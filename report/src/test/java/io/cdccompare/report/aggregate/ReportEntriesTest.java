package io.cdccompare.report.aggregate;

import static io.cdccompare.report.aggregate.ReportDriver.LINES;
import static io.cdccompare.report.aggregate.ReportDriver.ORDERS;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_1;
import static io.cdccompare.report.aggregate.ReportDriver.RUN_2;
import static io.cdccompare.report.aggregate.ReportDriver.TASK;
import static io.cdccompare.report.aggregate.ReportDriver.counts;
import static io.cdccompare.report.aggregate.ReportDriver.hashRecord;
import static io.cdccompare.report.aggregate.ReportDriver.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.report.ReportKey;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.HashRecord;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The report entries: what counts, when, and how totals add up per table, target and task. */
class ReportEntriesTest {
  private static final String PG = "pg-replica";
  private static final String MARIA = "maria-replica";
  private static final String PG_ORDERS = ReportKey.ofTable(TASK, PG, ORDERS);

  private final ReportDriver report = new ReportDriver();

  @AfterEach
  void close() {
    report.close();
  }

  @Test
  void aChunkCountsOnlyOnceEveryPartitionReported() {
    // Given
    report.noted(RUN_1, ORDERS, 1);

    // When the first of two partitions reports
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 1)));

    // Then the target is known but the chunk does not count yet
    ReportEntry incomplete = report.latest(PG_ORDERS);
    assertThat(incomplete.getApplyChunks()).isZero();
    assertThat(incomplete.getCounts()).isEqualTo(counts(0, 0, 0, 0, 0));
    assertThat(incomplete.getStatus()).isEqualTo(ReportStatus.IN_PROGRESS);

    // When the second reports
    report.results(result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(4, 0, 0, 0, 0)));

    // Then the chunk counts once, with the rows of both partitions
    ReportEntry complete = report.latest(PG_ORDERS);
    assertThat(complete.getApplyChunks()).isEqualTo(1);
    assertThat(complete.getCaptureChunks()).isEqualTo(1);
    assertThat(complete.getCounts()).isEqualTo(counts(10, 0, 0, 0, 1));
    assertThat(complete.getStatus()).isEqualTo(ReportStatus.IN_SYNC);
  }

  @Test
  void aHashRecordThatCannotBeReadIsSkippedAndTheReportGoesOn() {
    // Given chunk 1 noted, and chunk 2's hash record cut to half its bytes on the hashes topic
    report.noted(RUN_1, ORDERS, 1);
    report.truncatedHashRecord(hashRecord(RUN_1, ORDERS, 2, 0, 0));

    // When chunk 1 is reported, and chunk 2 as UNVERIFIABLE (its verifier could not read it)
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(6, 0, 0, 0, 0)),
        result(PG, RUN_1, ORDERS, 2, 0, 1)
            .setState(ChunkState.UNVERIFIABLE)
            .setError("the hash record at pg.compare.hashes-0@1 cannot be read"));

    // Then the report goes on: chunk 1 counts, chunk 2 is not counted as noted, and its
    // UNVERIFIABLE alert names the record
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(entry.getCaptureChunks()).isEqualTo(1);
    assertThat(entry.getApplyChunks()).isEqualTo(2);
    assertThat(entry.getUnverifiableChunks()).isEqualTo(1);
    assertThat(report.alerts())
        .singleElement()
        .satisfies(a -> assertThat(a.getMessage()).contains("pg.compare.hashes-0@1"));
  }

  @Test
  void aRecheckRunLeavesTheFullRunsTotalsAsTheyAre() {
    // Given a full run's complete chunk with a key in flight
    report.noted(RUN_1, ORDERS, 1);
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 1)),
        result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(4, 0, 0, 0, 0)));
    ReportEntry full = report.latest(PG_ORDERS);
    int emitted = report.entries().size();

    // When a recheck of that run notes a key-list chunk and the target reports it
    String recheck = RUN_1 + ".recheck1";
    report.hashRecords(
        HashRecord.newBuilder(hashRecord(recheck, ORDERS, 0, 0, 0))
            .setTaskKind(TaskKind.RECHECK)
            .build());
    report.results(
        result(PG, recheck, ORDERS, 0, 0, 2)
            .setTaskKind(TaskKind.RECHECK)
            .setCounts(counts(0, 1, 0, 0, 0)),
        result(PG, recheck, ORDERS, 0, 1, 2)
            .setTaskKind(TaskKind.RECHECK)
            .setCounts(counts(0, 0, 0, 0, 0)));

    // Then the report still shows the full run, unchanged
    assertThat(report.entries()).hasSize(emitted);
    assertThat(report.latest(PG_ORDERS)).isEqualTo(full);
    assertThat(full.getRunId()).isEqualTo(RUN_1);
  }

  @Test
  void aReplayedResultChangesNothing() {
    // Given a complete chunk
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 0)),
        result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(4, 0, 0, 0, 0)));
    int emitted = report.entries().size();

    // When both partitions' markers are replayed and their verdicts re-emitted
    report.results(
        result(PG, RUN_1, ORDERS, 1, 1, 2).setCounts(counts(4, 0, 0, 0, 0)),
        result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 0)));

    // Then nothing is counted again, nor emitted
    assertThat(report.entries()).hasSize(emitted);
    assertThat(report.latest(PG_ORDERS).getApplyChunks()).isEqualTo(1);
    assertThat(report.latest(PG_ORDERS).getCounts()).isEqualTo(counts(10, 0, 0, 0, 0));
  }

  @Test
  void aDuplicateOfAnIncompleteChunksPartitionDoesNotCompleteIt() {
    // Given
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 0)));

    // When the same partition reports again
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 2).setCounts(counts(6, 0, 0, 0, 0)));

    // Then the chunk still waits for partition 1
    assertThat(report.latest(PG_ORDERS).getApplyChunks()).isZero();
  }

  @Test
  void twoTargetsAreCountedApartAgainstOneCaptureCount() {
    // Given three chunks noted
    report.noted(RUN_1, ORDERS, 1, 2, 3);

    // When one target compared all three and the other only the first
    for (long chunk = 1; chunk <= 3; chunk++) {
      report.results(result(PG, RUN_1, ORDERS, chunk, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    }
    report.results(result(MARIA, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));

    // Then
    ReportEntry pg = report.latest(PG_ORDERS);
    ReportEntry maria = report.latest(ReportKey.ofTable(TASK, MARIA, ORDERS));
    assertThat(List.of(pg.getCaptureChunks(), pg.getApplyChunks())).containsExactly(3L, 3L);
    assertThat(pg.getStatus()).isEqualTo(ReportStatus.IN_SYNC);
    assertThat(List.of(maria.getCaptureChunks(), maria.getApplyChunks())).containsExactly(3L, 1L);
    assertThat(maria.getCounts().getMatched()).isEqualTo(10);
    assertThat(maria.getStatus()).isEqualTo(ReportStatus.IN_PROGRESS);
  }

  @Test
  void aNotedChunkReEmitsTheEntriesOfEveryKnownTarget() {
    // Given both targets compared chunk 1 before its note was read
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(5, 0, 0, 0, 0)),
        result(MARIA, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(5, 0, 0, 0, 0)));

    // When chunks 1 and 2 are noted
    report.noted(RUN_1, ORDERS, 1, 2);

    // Then both targets show the capture count
    for (String target : List.of(PG, MARIA)) {
      ReportEntry entry = report.latest(ReportKey.ofTable(TASK, target, ORDERS));
      assertThat(entry.getCaptureChunks()).as(target).isEqualTo(2);
      assertThat(entry.getApplyChunks()).as(target).isEqualTo(1);
      assertThat(entry.getStatus()).as(target).isEqualTo(ReportStatus.IN_PROGRESS);
    }
  }

  @Test
  void aChunkIsNotedOnceWhateverHashRecordsArrive() {
    // Given
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1));

    // When chunk 1's records of both partitions and parts arrive, its first one is written again
    // after a crash, and the records are finally removed
    report.hashRecords(
        hashRecord(RUN_1, ORDERS, 1, 0, 0),
        hashRecord(RUN_1, ORDERS, 1, 0, 1),
        hashRecord(RUN_1, ORDERS, 1, 1, 0),
        hashRecord(RUN_1, ORDERS, 1, 0, 0));
    report.hashTombstone(hashRecord(RUN_1, ORDERS, 1, 0, 0));

    // Then the chunk was noted once
    assertThat(report.latest(PG_ORDERS).getCaptureChunks()).isEqualTo(1);
    assertThat(report.entries()).extracting(ReportEntry::getCaptureChunks).containsOnly(0L, 1L);
  }

  @Test
  void onlyTheRecordOfPartitionZeroPartZeroNotesAChunk() {
    // Given
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1));

    // When only the other records of chunk 1 arrive
    report.hashRecords(hashRecord(RUN_1, ORDERS, 1, 1, 0), hashRecord(RUN_1, ORDERS, 1, 0, 1));

    // Then
    assertThat(report.latest(PG_ORDERS).getCaptureChunks()).isZero();
  }

  @Test
  void aNewerRunRestartsTheTablesTotalsOnEveryTarget() {
    // Given run 1 compared with a difference on both targets
    report.noted(RUN_1, ORDERS, 1, 2);
    for (String target : List.of(PG, MARIA)) {
      report.results(
          result(target, RUN_1, ORDERS, 1, 0, 1)
              .setCounts(counts(9, 1, 0, 0, 0))
              .setFailedKeys(List.of("7")),
          result(target, RUN_1, ORDERS, 2, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    }
    assertThat(report.latest(PG_ORDERS).getStatus()).isEqualTo(ReportStatus.DIFFERENCES);

    // When run 2 notes its first chunk
    report.noted(RUN_2, ORDERS, 1);

    // Then both targets start over in run 2
    for (String target : List.of(PG, MARIA)) {
      ReportEntry entry = report.latest(ReportKey.ofTable(TASK, target, ORDERS));
      assertThat(entry.getRunId()).as(target).isEqualTo(RUN_2);
      assertThat(List.of(entry.getCaptureChunks(), entry.getApplyChunks()))
          .as(target)
          .containsExactly(1L, 0L);
      assertThat(entry.getCounts()).as(target).isEqualTo(counts(0, 0, 0, 0, 0));
      assertThat(entry.getStatus()).as(target).isEqualTo(ReportStatus.IN_PROGRESS);
    }
  }

  @Test
  void aResultOfANewerRunRestartsTheTotalsBeforeItsNoteArrives() {
    // Given
    report.noted(RUN_1, ORDERS, 1, 2);
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));

    // When
    report.results(result(PG, RUN_2, ORDERS, 1, 0, 1).setCounts(counts(3, 0, 0, 0, 0)));

    // Then
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(entry.getRunId()).isEqualTo(RUN_2);
    assertThat(List.of(entry.getCaptureChunks(), entry.getApplyChunks())).containsExactly(0L, 1L);
    assertThat(entry.getCounts().getMatched()).isEqualTo(3);
  }

  @Test
  void recordsOfAnOlderRunAreIgnoredOnceANewerRunIsSeen() {
    // Given
    report.noted(RUN_2, ORDERS, 1);
    report.results(result(PG, RUN_2, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    int emitted = report.entries().size();

    // When a late result and note of run 1 arrive
    report.results(result(PG, RUN_1, ORDERS, 7, 0, 1).setCounts(counts(0, 5, 0, 0, 0)));
    report.noted(RUN_1, ORDERS, 7);

    // Then
    assertThat(report.entries()).hasSize(emitted);
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(entry.getRunId()).isEqualTo(RUN_2);
    assertThat(entry.getCounts()).isEqualTo(counts(10, 0, 0, 0, 0));
    assertThat(entry.getCaptureChunks()).isEqualTo(1);
  }

  @Test
  void theStatusFollowsProgressThenDifferencesThenUnverifiable() {
    // Given
    List<ReportStatus> statuses = new ArrayList<>();

    // When
    report.noted(RUN_1, ORDERS, 1, 2);
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    statuses.add(report.latest(PG_ORDERS).getStatus());
    report.results(result(PG, RUN_1, ORDERS, 2, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    statuses.add(report.latest(PG_ORDERS).getStatus());
    report.noted(RUN_1, ORDERS, 3, 4);
    statuses.add(report.latest(PG_ORDERS).getStatus());
    report.results(
        result(PG, RUN_1, ORDERS, 3, 0, 1)
            .setCounts(counts(9, 0, 1, 0, 0))
            .setMissedKeys(List.of("42")));
    statuses.add(report.latest(PG_ORDERS).getStatus());
    report.results(
        result(PG, RUN_1, ORDERS, 4, 0, 1)
            .setState(ChunkState.UNVERIFIABLE)
            .setError("hash record of chunk 4 partition 0 is gone"));
    statuses.add(report.latest(PG_ORDERS).getStatus());

    // Then
    assertThat(statuses)
        .containsExactly(
            ReportStatus.IN_PROGRESS,
            ReportStatus.IN_SYNC,
            ReportStatus.IN_PROGRESS,
            ReportStatus.DIFFERENCES,
            ReportStatus.UNVERIFIABLE);
    ReportEntry last = report.latest(PG_ORDERS);
    assertThat(List.of(last.getApplyChunks(), last.getUnverifiableChunks()))
        .containsExactly(4L, 1L);
  }

  @Test
  void aStalledChunkCountsWithTheUnverifiableOnesAndRaisesNoSecondAlert() {
    // Given
    report.noted(RUN_1, ORDERS, 1);

    // When a verify-only target's verifier reports the chunk stalled (it raised the alert itself)
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1)
            .setState(ChunkState.STALLED)
            .setError("consumer group sink has no committed offset for topic pg.x partition 0"));

    // Then
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(
            List.of(
                entry.getApplyChunks(),
                entry.getUnverifiableChunks(),
                entry.getSchemaDriftChunks()))
        .containsExactly(1L, 1L, 0L);
    assertThat(entry.getStatus()).isEqualTo(ReportStatus.UNVERIFIABLE);
    assertThat(report.alerts()).isEmpty();
  }

  @Test
  void aSchemaDriftChunkCountsAsSuch() {
    // Given
    report.noted(RUN_1, ORDERS, 1);

    // When
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1)
            .setState(ChunkState.SCHEMA_DRIFT)
            .setError("column amount is missing on the target"));

    // Then
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(
            List.of(
                entry.getApplyChunks(),
                entry.getSchemaDriftChunks(),
                entry.getUnverifiableChunks()))
        .containsExactly(1L, 1L, 0L);
    assertThat(entry.getStatus()).isEqualTo(ReportStatus.UNVERIFIABLE);
  }

  @Test
  void theTaskEntryTotalsEveryTableOfTheTarget() {
    // Given orders fully compared, order lines one chunk of three with an extra row
    report.noted(RUN_1, ORDERS, 1, 2);
    report.noted(RUN_2, LINES, 1, 2, 3);
    report.results(
        result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)),
        result(PG, RUN_1, ORDERS, 2, 0, 1).setCounts(counts(10, 0, 0, 0, 2)));

    // When
    report.results(
        result(PG, RUN_2, LINES, 1, 0, 1)
            .setCounts(counts(5, 0, 0, 1, 0))
            .setExtraKeys(List.of("9,1")));

    // Then
    ReportEntry task = report.latest(ReportKey.ofTask(TASK, PG));
    assertThat(task.getTable()).isNull();
    assertThat(task.getTask()).isEqualTo(TASK);
    assertThat(task.getTarget()).isEqualTo(PG);
    assertThat(List.of(task.getCaptureChunks(), task.getApplyChunks())).containsExactly(5L, 3L);
    assertThat(task.getCounts()).isEqualTo(counts(25, 0, 0, 1, 2));
    assertThat(task.getRunId()).isEqualTo(RUN_2);
    assertThat(task.getStatus()).isEqualTo(ReportStatus.DIFFERENCES);
  }

  @Test
  void aTableATargetHasNotReportedShowsInProgressInItsTaskEntry() {
    // Given a target that compared every chunk of orders
    report.noted(RUN_1, ORDERS, 1);
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(10, 0, 0, 0, 0)));
    assertThat(report.latest(ReportKey.ofTask(TASK, PG)).getStatus())
        .isEqualTo(ReportStatus.IN_SYNC);

    // When the task notes a chunk of the next table
    report.noted(RUN_1, LINES, 1);

    // Then
    ReportEntry lines = report.latest(ReportKey.ofTable(TASK, PG, LINES));
    assertThat(List.of(lines.getCaptureChunks(), lines.getApplyChunks())).containsExactly(1L, 0L);
    assertThat(lines.getStatus()).isEqualTo(ReportStatus.IN_PROGRESS);
    assertThat(report.latest(ReportKey.ofTask(TASK, PG)).getStatus())
        .isEqualTo(ReportStatus.IN_PROGRESS);
  }

  @Test
  void anEntryIsKeyedByTaskTargetAndTableAndStampedWithItsCause() {
    // Given
    // When
    report.results(result(PG, RUN_1, ORDERS, 1, 0, 1).setCounts(counts(1, 0, 0, 0, 0)));

    // Then
    assertThat(report.keys())
        .containsExactly("nightly/pg-replica/public.orders", "nightly/pg-replica");
    ReportEntry entry = report.latest(PG_ORDERS);
    assertThat(List.of(entry.getTask(), entry.getTarget(), entry.getTable(), entry.getRunId()))
        .containsExactly(TASK, PG, ORDERS, RUN_1);
    assertThat(entry.getTaskKind()).isEqualTo(TaskKind.FULL);
    assertThat(entry.getLastUpdate()).isEqualTo(report.lastInputTime());
  }
}
