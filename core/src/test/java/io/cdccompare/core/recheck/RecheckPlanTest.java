package io.cdccompare.core.recheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cdccompare.core.recheck.RecheckPlan.Verdict;
import io.cdccompare.core.recheck.RecheckPlan.What;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecheckPlanTest {
  private final List<Verdict> verdicts =
      List.of(
          new Verdict(
              "a", "public.t", List.of("f1"), List.of("m1"), List.of(), List.of("k2", "k1")),
          new Verdict("b", "public.t", List.of(), List.of(), List.of("x1"), List.of("k1")),
          new Verdict("b", "public.u", List.of(), List.of(), List.of(), List.of("u1")));

  @Test
  void aKeyIsRecheckedOnlyAtTheTargetsThatListedIt() {
    RecheckPlan plan = RecheckPlan.of(verdicts, What.IN_FLIGHT);

    assertThat(plan.tables()).containsExactly("public.t", "public.u");
    assertThat(plan.keys("public.t"))
        .containsExactly(Map.entry("k1", Set.of("a", "b")), Map.entry("k2", Set.of("a")));
    assertThat(plan.keys("public.u")).containsExactly(Map.entry("u1", Set.of("b")));
    assertThat(plan.comparisons()).isEqualTo(4);
  }

  @Test
  void differencesTakeFailedMissedAndExtraAndAllTakesBoth() {
    assertThat(RecheckPlan.of(verdicts, What.DIFFERENCES).keys("public.t"))
        .containsOnlyKeys("f1", "m1", "x1");
    assertThat(RecheckPlan.of(verdicts, What.DIFFERENCES).tables()).containsExactly("public.t");
    assertThat(RecheckPlan.of(verdicts, What.ALL).keys("public.t"))
        .containsOnlyKeys("f1", "m1", "x1", "k1", "k2");
  }

  @Test
  void chunksCutTheKeysInOrder() {
    RecheckPlan plan = RecheckPlan.of(verdicts, What.ALL);

    List<KeyList> chunks = plan.chunks("public.t", 2);

    assertThat(chunks)
        .extracting(KeyList::keys)
        .containsExactly(List.of("f1", "k1"), List.of("k2", "m1"), List.of("x1"));
    assertThat(chunks.get(0).keysByTarget(List.of("f1", "k1")))
        .containsExactly(Map.entry("a", List.of("f1", "k1")), Map.entry("b", List.of("k1")));
    assertThat(plan.chunks("public.none", 2)).isEmpty();
    assertThatThrownBy(() -> plan.chunks("public.t", 0)).hasMessageContaining("maxKeys");
  }

  @Test
  void whatIsParsedFromItsCommandLineSpelling() {
    assertThat(What.parse("in-flight")).isEqualTo(What.IN_FLIGHT);
    assertThat(What.parse("all")).isEqualTo(What.ALL);
    assertThatThrownBy(() -> What.parse("some"))
        .hasMessageContaining("--what")
        .hasMessageContaining("'some'");
  }

  @Test
  void aKeyListNamesTheTargetsOfEveryKeyOrOfNone() {
    assertThat(KeyList.everywhere(List.of("a", "b")).keysByTarget(List.of("a"))).isEmpty();
    assertThatThrownBy(() -> new KeyList(Map.of("a", Set.of("t"), "b", Set.of())))
        .hasMessageContaining("1 of 2");
    assertThatThrownBy(() -> new KeyList(Map.of())).hasMessageContaining("at least one key");
    assertThatThrownBy(() -> KeyList.everywhere(List.of("a")).keysByTarget(List.of("z")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRecheckRunIdLinksToTheRunItRechecks() {
    String id = RecheckRuns.runId("20261201T2000-abc", 2);

    assertThat(id).isEqualTo("20261201T2000-abc.recheck2");
    assertThat(RecheckRuns.rechecked(id)).contains("20261201T2000-abc");
    assertThat(RecheckRuns.attempt(id)).isEqualTo(2);
    assertThat(RecheckRuns.rechecked("20261201T2000-abc")).isEmpty();
    assertThat(RecheckRuns.attempt("20261201T2000-abc")).isZero();
    assertThatThrownBy(() -> RecheckRuns.runId("r", 0)).hasMessageContaining("from 1");
  }
}
