package io.cdccompare.core.recheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecheckRunsTest {

  @Test
  void aRepairRunNamesTheRunItRepairsAndItsNumber() {
    String repair = RecheckRuns.repairRunId("r1", 2);

    assertThat(repair).isEqualTo("r1.repair2");
    assertThat(RecheckRuns.repaired(repair)).contains("r1");
    assertThat(RecheckRuns.repairAttempt(repair)).isEqualTo(2);
    assertThat(RecheckRuns.rechecked(repair)).isEmpty();
    assertThat(RecheckRuns.repaired("r1.recheck1")).isEmpty();
    assertThat(RecheckRuns.repairAttempt("r1")).isZero();
  }

  @Test
  void theOriginOfAChainOfRechecksAndRepairsIsTheRunAtItsRoot() {
    assertThat(RecheckRuns.origin("r1")).isEqualTo("r1");
    assertThat(RecheckRuns.origin("r1.recheck3")).isEqualTo("r1");
    assertThat(RecheckRuns.origin("r1.repair1")).isEqualTo("r1");
    assertThat(RecheckRuns.origin("r1.repair1.recheck2")).isEqualTo("r1");
    assertThat(RecheckRuns.rechecked("r1.repair1.recheck2")).contains("r1.repair1");
  }

  @Test
  void anAttemptCountsFromOne() {
    assertThatThrownBy(() -> RecheckRuns.repairRunId("r1", 0))
        .hasMessage("a repair attempt counts from 1, was 0");
    assertThatThrownBy(() -> RecheckRuns.runId("r1", 0))
        .hasMessage("a recheck attempt counts from 1, was 0");
  }
}
