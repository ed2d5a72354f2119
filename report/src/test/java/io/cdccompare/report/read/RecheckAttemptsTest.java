package io.cdccompare.report.read;

import static io.cdccompare.report.read.ReportFixtures.LINES;
import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.recheckResult;
import static io.cdccompare.report.read.ReportFixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.report.RowTotals;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.ReportStatus;
import io.cdccompare.schemas.avro.TaskKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RecheckAttemptsTest {

  @Test
  void anAttemptSumsItsChunksAndPartitionsAndCountsAReEmittedVerdictOnce() {
    // Given attempt 1 on pg: chunk 0 in two partitions (partition 1 re-emitted), chunk 1 in one
    ChunkResult replayed =
        recheckResult(PG, ORDERS, 1, 0, 1)
            .setCounts(counts(3, 1, 0, 0, 1))
            .setFailedKeys(List.of("17"))
            .setInFlightKeys(List.of("9"))
            .build();
    List<ChunkResult> results =
        List.of(
            recheckResult(PG, ORDERS, 1, 0, 0)
                .setCounts(counts(5, 0, 1, 0, 0))
                .setMissedKeys(List.of("4"))
                .build(),
            replayed,
            replayed,
            recheckResult(PG, ORDERS, 1, 1, 0)
                .setCounts(counts(4, 1, 0, 1, 0))
                .setFailedKeys(List.of("3"))
                .setExtraKeys(List.of("b"))
                .build());

    // When the attempts of the run are taken
    List<RecheckAttempt> attempts = RecheckAttempts.of(results, 0).rechecks(TASK, PG, ORDERS, RUN);

    // Then one attempt: every partition's rows once, the keys of each class in key order
    assertThat(attempts).hasSize(1);
    RecheckAttempt first = attempts.get(0);
    assertThat(first.attempt()).isEqualTo(1);
    assertThat(first.runId()).isEqualTo(RUN + ".recheck1");
    assertThat(first.rows()).isEqualTo(new RowTotals(12, 2, 1, 1, 1));
    assertThat(first.unverifiableChunks()).isZero();
    assertThat(first.keys().failed().shown()).containsExactly("3", "17");
    assertThat(first.keys().missed().shown()).containsExactly("4");
    assertThat(first.keys().extra().shown()).containsExactly("b");
    assertThat(first.inFlight().shown()).containsExactly("9");
  }

  @Test
  void aRepairsCheckIsShownBesideTheRunItRepairedAsARepair() {
    // Given the check of repair 1 of the run on maria (REPAIR chunks), and a recheck of its key
    // that stayed in flight
    List<ChunkResult> results =
        List.of(
            result(MARIA, ORDERS, 0, 0)
                .setRunId(RUN + ".repair1")
                .setTaskKind(TaskKind.REPAIR)
                .setCounts(counts(3, 0, 0, 0, 1))
                .setInFlightKeys(List.of("6"))
                .build(),
            result(MARIA, ORDERS, 0, 0)
                .setRunId(RUN + ".repair1.recheck1")
                .setTaskKind(TaskKind.RECHECK)
                .setCounts(counts(1, 0, 0, 0, 0))
                .build());

    // When the attempts of the run are taken
    List<RecheckAttempt> attempts =
        RecheckAttempts.of(results, 0).rechecks(TASK, MARIA, ORDERS, RUN);

    // Then the repair comes first, as repair 1, then the recheck of what it left in flight
    assertThat(attempts).extracting(RecheckAttempt::kind).containsExactly("repair", "recheck");
    assertThat(attempts).extracting(RecheckAttempt::attempt).containsExactly(1, 1);
    assertThat(attempts.get(0).rows()).isEqualTo(new RowTotals(3, 0, 0, 0, 1));
    assertThat(attempts.get(1).runId()).isEqualTo(RUN + ".repair1.recheck1");
    assertThat(RecheckAttempts.ofRows(List.of()).test(results.get(0))).isFalse();
  }

  @Test
  void attemptsComeInAttemptOrderEachWithItsOwnRows() {
    // Given attempts 10, 2 and 1 of the run, read in that order
    List<ChunkResult> results =
        List.of(
            recheckResult(PG, ORDERS, 10, 0, 0).setCounts(counts(1, 0, 0, 0, 0)).build(),
            recheckResult(PG, ORDERS, 2, 0, 0)
                .setCounts(counts(2, 0, 0, 0, 1))
                .setInFlightKeys(List.of("7"))
                .build(),
            recheckResult(PG, ORDERS, 1, 0, 0)
                .setCounts(counts(5, 0, 0, 0, 3))
                .setInFlightKeys(List.of("7", "8", "9"))
                .build());

    // When the attempts are taken
    List<RecheckAttempt> attempts = RecheckAttempts.of(results, 0).rechecks(TASK, PG, ORDERS, RUN);

    // Then by attempt number, not by text or arrival
    assertThat(attempts).extracting(RecheckAttempt::attempt).containsExactly(1, 2, 10);
    assertThat(attempts).extracting(a -> a.rows().inFlight()).containsExactly(3L, 1L, 0L);
    assertThat(attempts.get(1).inFlight().shown()).containsExactly("7");
  }

  @Test
  void aChunkWithAVerdictThatIsNotVerifiedIsCountedUnverifiableOnce() {
    // Given chunk 0 unverifiable in both partitions, chunk 1 in schema drift, chunk 2 verified
    List<ChunkResult> results =
        List.of(
            recheckResult(PG, ORDERS, 1, 0, 0).setState(ChunkState.UNVERIFIABLE).build(),
            recheckResult(PG, ORDERS, 1, 0, 1).setState(ChunkState.UNVERIFIABLE).build(),
            recheckResult(PG, ORDERS, 1, 1, 0).setState(ChunkState.SCHEMA_DRIFT).build(),
            recheckResult(PG, ORDERS, 1, 2, 0).setCounts(counts(2, 0, 0, 0, 0)).build());

    // When the attempt is taken
    RecheckAttempt attempt = RecheckAttempts.of(results, 0).rechecks(TASK, PG, ORDERS, RUN).get(0);

    // Then two chunks are unverifiable, the verified one's rows count
    assertThat(attempt.unverifiableChunks()).isEqualTo(2);
    assertThat(attempt.rows()).isEqualTo(new RowTotals(2, 0, 0, 0, 0));
  }

  @Test
  void theKeysOfEachClassAreCutAtTheMaximumWithTheirTotal() {
    // Given 30 in-flight keys and 3 failed keys in one attempt
    List<String> many = new ArrayList<>();
    for (int i = 30; i >= 1; i--) {
      many.add(Integer.toString(i));
    }
    List<ChunkResult> results =
        List.of(
            recheckResult(PG, ORDERS, 1, 0, 0)
                .setCounts(counts(0, 3, 0, 0, 30))
                .setInFlightKeys(many)
                .setFailedKeys(List.of("c", "a", "b"))
                .build());

    // When at most 5 keys per class are shown
    RecheckAttempt attempt = RecheckAttempts.of(results, 5).rechecks(TASK, PG, ORDERS, RUN).get(0);

    // Then the first 5 of each class in key order, the others counted
    assertThat(attempt.inFlight().shown()).containsExactly("1", "2", "3", "4", "5");
    assertThat(attempt.inFlight().total()).isEqualTo(30);
    assertThat(attempt.inFlight().omitted()).isEqualTo(25);
    assertThat(attempt.keys().failed().shown()).containsExactly("a", "b", "c");
    assertThat(attempt.keys().failed().omitted()).isZero();
  }

  @Test
  void resultsOfOtherRunsTargetsTablesOrKindsAreNotMixedIn() {
    // Given the run's own full results, and rechecks of another run, target and table
    List<ChunkResult> results =
        List.of(
            result(PG, ORDERS, 0, 0).setCounts(counts(100, 0, 0, 0, 0)).build(),
            recheckResult(PG, ORDERS, 1, 0, 0).setCounts(counts(1, 0, 0, 0, 0)).build(),
            recheckResult(MARIA, ORDERS, 1, 0, 0).setCounts(counts(2, 0, 0, 0, 0)).build(),
            recheckResult(PG, LINES, 1, 0, 0).setCounts(counts(3, 0, 0, 0, 0)).build(),
            recheckResult(PG, ORDERS, 1, 0, 0)
                .setRunId("older.recheck1")
                .setCounts(counts(4, 0, 0, 0, 0))
                .build(),
            recheckResult(PG, ORDERS, 2, 0, 0)
                .setTaskKind(TaskKind.FULL)
                .setCounts(counts(5, 0, 0, 0, 0))
                .build());

    // When pg's attempts on orders of the run are taken
    List<RecheckAttempt> attempts = RecheckAttempts.of(results, 0).rechecks(TASK, PG, ORDERS, RUN);

    // Then only its own recheck
    assertThat(attempts).singleElement().satisfies(a -> assertThat(a.rows().matched()).isOne());
    assertThat(RecheckAttempts.of(results, 0).rechecks(TASK, PG, ORDERS, "none")).isEmpty();
  }

  @Test
  void onlyRechecksOfTheShownRowsRunsAreWanted() {
    // Given pg in sync on orders and maria without results
    List<TaskReport> shown =
        TaskReports.of(
            List.of(entry(PG, ORDERS, ReportStatus.IN_SYNC, 1, 1, counts(5, 0, 0, 0, 2))),
            Optional.empty(),
            List.of(PG, MARIA));

    // When the filter of the results is built
    var wanted = RecheckAttempts.ofRows(shown);

    // Then it accepts the rechecks of pg's run on orders only
    assertThat(wanted.test(recheckResult(PG, ORDERS, 1, 0, 0).build())).isTrue();
    assertThat(wanted.test(recheckResult(PG, ORDERS, 3, 0, 0).build())).isTrue();
    assertThat(wanted.test(result(PG, ORDERS, 0, 0).build())).isFalse();
    assertThat(wanted.test(recheckResult(MARIA, ORDERS, 1, 0, 0).build())).isFalse();
    assertThat(wanted.test(recheckResult(PG, LINES, 1, 0, 0).build())).isFalse();
    assertThat(wanted.test(recheckResult(PG, ORDERS, 1, 0, 0).setRunId("x.recheck1").build()))
        .isFalse();
  }

  @Test
  void theAttemptsAreAttachedToTheTableRowsOfTheirRunOnly() {
    // Given pg's totals and orders row of the run, and one recheck of it
    List<TaskReport> shown =
        TaskReports.of(
            List.of(
                entry(PG, null, ReportStatus.IN_SYNC, 1, 1, counts(5, 0, 0, 0, 2)),
                entry(PG, ORDERS, ReportStatus.IN_SYNC, 1, 1, counts(5, 0, 0, 0, 2))),
            Optional.empty(),
            List.of(PG));
    RecheckAttempts attempts =
        RecheckAttempts.of(
            List.of(recheckResult(PG, ORDERS, 1, 0, 0).setCounts(counts(2, 0, 0, 0, 0)).build()),
            0);

    // When they are attached
    TargetReport pg = TaskReports.withRechecks(shown, attempts).get(0).targets().get(0);

    // Then the table row has the attempt, the totals row none
    assertThat(pg.tables().get(0).rechecks()).singleElement();
    assertThat(pg.total().rechecks()).isEmpty();
  }
}
