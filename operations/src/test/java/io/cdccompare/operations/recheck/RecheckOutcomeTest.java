package io.cdccompare.operations.recheck;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.ORDERS;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.recheck.KeyList;
import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.core.recheck.RecheckPlan.What;
import io.cdccompare.core.recheck.RecheckRuns;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.core.stream.KeyPartitioner;
import io.cdccompare.operations.recheck.RecheckOutcome.TableOutcome;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ChunkState;
import io.cdccompare.schemas.avro.TaskKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecheckOutcomeTest {
  private static final String RECHECK = RecheckRuns.runId(RUN, 1);

  /** The full run: keys 1, 2, 3 in flight on pg, 2 on maria; 9 failed on pg. */
  private final List<ChunkResult> run =
      List.of(
          result(PG, ORDERS, 4, 0).setInFlightKeys(List.of("1", "2", "3")).build(),
          result(PG, ORDERS, 4, 1).setFailedKeys(List.of("9")).build(),
          result(MARIA, ORDERS, 4, 0).setInFlightKeys(List.of("2")).build(),
          result("other", ORDERS, 4, 0).setRunId("older").setInFlightKeys(List.of("7")).build());

  @Test
  void aRunsVerdictsGiveEachKeyTheTargetsThatListedIt() {
    RecheckPlan plan = RecheckPlan.of(RecheckVerdicts.of(run, RUN), What.IN_FLIGHT);

    assertThat(plan.keys(ORDERS))
        .containsExactly(
            Map.entry("1", Set.of(PG)),
            Map.entry("2", Set.of(MARIA, PG)),
            Map.entry("3", Set.of(PG)));
    assertThat(RecheckPlan.of(RecheckVerdicts.of(run, RUN), What.DIFFERENCES).keys(ORDERS))
        .containsOnlyKeys("9");
  }

  @Test
  void eachKeyEndsConfirmedClearedUnsettledOrUnverifiedOnItsTarget() {
    Map<String, List<KeyList>> chunks =
        Map.of(
            ORDERS, RecheckPlan.of(RecheckVerdicts.of(run, RUN), What.IN_FLIGHT).chunks(ORDERS, 2));
    assertThat(chunks.get(ORDERS))
        .extracting(KeyList::keys)
        .containsExactly(List.of("1", "2"), List.of("3"));
    List<ChunkResult> recheck = new ArrayList<>();
    // chunk 0: on pg, key 1 differs again and key 2 changed again; maria matched key 2
    recheck.add(recheck(PG, 0, partition("1")).setFailedKeys(List.of("1")).build());
    recheck.add(recheck(PG, 0, partition("2")).setInFlightKeys(List.of("2")).build());
    recheck.add(recheck(MARIA, 0, 0).build());
    recheck.add(recheck(MARIA, 0, 1).build());
    // chunk 1: pg could not verify the partition of key 3
    recheck.add(
        recheck(PG, 1, partition("3")).setState(ChunkState.UNVERIFIABLE).setError("gone").build());
    recheck.add(recheck(PG, 1, 1 - partition("3")).build());
    recheck.add(recheck(MARIA, 1, 0).build());

    assertThat(RecheckOutcome.complete(chunks, recheck, RECHECK, List.of(PG, MARIA)))
        .as("maria has not verified partition 1 of chunk 1")
        .isFalse();
    recheck.add(recheck(MARIA, 1, 1).build());
    assertThat(RecheckOutcome.complete(chunks, recheck, RECHECK, List.of(PG, MARIA))).isTrue();

    RecheckOutcome outcome = RecheckOutcome.of(chunks, recheck, RECHECK);

    assertThat(outcome.tables()).extracting(TableOutcome::target).containsExactly(MARIA, PG);
    TableOutcome maria = outcome.tables().get(0);
    assertThat(maria.cleared()).containsExactly("2");
    assertThat(maria.confirmed()).isEmpty();
    TableOutcome pg = outcome.tables().get(1);
    assertThat(pg.confirmed()).containsExactly(Map.entry("1", "failed"));
    assertThat(pg.unsettled()).containsExactly("2");
    assertThat(pg.unverified()).containsExactly("3");
    assertThat(pg.cleared()).isEmpty();
    assertThat(outcome.exitCode()).isEqualTo(ExitCode.DIFFERENCES);

    StringWriter text = new StringWriter();
    outcome.print(new PrintWriter(text));
    assertThat(text.toString())
        .contains(PG + " " + ORDERS + ": confirmed=1 cleared=0 unsettled=1 unverified=1")
        .contains("  1 confirmed failed")
        .contains("  2 unsettled")
        .contains(MARIA + " " + ORDERS + ": confirmed=0 cleared=1 unsettled=0 unverified=0");
  }

  @Test
  void theExitCodeSaysTheWorstOutcome() {
    Map<String, List<KeyList>> chunks =
        Map.of(ORDERS, List.of(new KeyList(Map.of("1", Set.of(PG)))));
    List<ChunkResult> settled = List.of(recheck(PG, 0, 0).build(), recheck(PG, 0, 1).build());
    List<ChunkResult> unsettled =
        List.of(
            recheck(PG, 0, partition("1")).setInFlightKeys(List.of("1")).build(),
            recheck(PG, 0, 1 - partition("1")).build());

    assertThat(RecheckOutcome.of(chunks, settled, RECHECK).exitCode()).isEqualTo(ExitCode.OK);
    assertThat(RecheckOutcome.of(chunks, unsettled, RECHECK).exitCode())
        .isEqualTo(ExitCode.INCOMPLETE);
    assertThat(RecheckOutcome.of(chunks, settled, "another").tables().get(0).cleared())
        .as("results of another run are not this recheck's")
        .containsExactly("1");
  }

  @Test
  void aFurtherAttemptSettlesWhatTheFirstLeftUnsettled() {
    Map<String, List<KeyList>> first =
        Map.of(ORDERS, List.of(new KeyList(Map.of("1", Set.of(PG), "2", Set.of(PG)))));
    RecheckOutcome one =
        RecheckOutcome.of(
            first,
            List.of(
                recheck(PG, 0, partition("1")).setInFlightKeys(inPartition(0, "1", "2")).build(),
                recheck(PG, 0, 1 - partition("1"))
                    .setInFlightKeys(inPartition(1, "1", "2"))
                    .build()),
            RECHECK);
    assertThat(one.tables().get(0).unsettled()).containsExactly("1", "2");
    assertThat(RecheckPlan.of(one.unsettled(), What.IN_FLIGHT).keys(ORDERS))
        .containsOnlyKeys("1", "2");

    String second = RecheckRuns.runId(RUN, 2);
    Map<String, List<KeyList>> again =
        Map.of(ORDERS, RecheckPlan.of(one.unsettled(), What.IN_FLIGHT).chunks(ORDERS, 10));
    List<ChunkResult> results = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      results.add(
          recheck(PG, 0, p)
              .setRunId(second)
              .setFailedKeys(inPartition(p, "1"))
              .setInFlightKeys(List.of())
              .build());
    }
    RecheckOutcome merged = one.followedBy(RecheckOutcome.of(again, results, second));

    TableOutcome pg = merged.tables().get(0);
    assertThat(pg.confirmed()).containsExactly(Map.entry("1", "failed"));
    assertThat(pg.cleared()).containsExactly("2");
    assertThat(pg.unsettled()).isEmpty();
    assertThat(merged.unsettled()).isEmpty();
  }

  private static List<String> inPartition(int p, String... keys) {
    return java.util.Arrays.stream(keys).filter(k -> partition(k) == p).toList();
  }

  private static ChunkResult.Builder recheck(String target, long chunk, int partition) {
    return result(target, ORDERS, chunk, partition).setRunId(RECHECK).setTaskKind(TaskKind.RECHECK);
  }

  private static int partition(String key) {
    return KeyPartitioner.partition(key, 2);
  }
}
