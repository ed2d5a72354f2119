package io.cdccompare.operations.status;

import static io.cdccompare.operations.status.StatusFixtures.compares;
import static io.cdccompare.operations.status.StatusFixtures.laggingTarget;
import static io.cdccompare.operations.status.StatusFixtures.report;
import static io.cdccompare.operations.status.StatusFixtures.slot;
import static io.cdccompare.operations.status.StatusFixtures.unreachableTarget;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatusReportTest {

  @Test
  void completeOnlyWhenEveryPartWasRead() {
    // Given every part read
    assertThat(report(slot(), null, List.of(laggingTarget()), compares()).complete()).isTrue();

    // Then each unreachable part alone makes it incomplete
    assertThat(
            report(
                    CaptureStatus.unreachable("s", "jdbc:postgresql://x/y", "refused"),
                    null,
                    List.of(laggingTarget()),
                    compares())
                .complete())
        .as("source")
        .isFalse();
    assertThat(report(slot(), "timeout", List.of(laggingTarget()), compares()).complete())
        .as("kafka")
        .isFalse();
    assertThat(
            report(slot(), null, List.of(laggingTarget(), unreachableTarget()), compares())
                .complete())
        .as("target")
        .isFalse();
    assertThat(
            report(
                    slot(),
                    null,
                    List.of(laggingTarget()),
                    CompareStatus.unreachable("shop.compare.report", "timeout"))
                .complete())
        .as("report")
        .isFalse();
  }

  @Test
  void aResyncIsNeededWhenTheSlotLostWalOrAPartitionCannotContinue() {
    // Given a healthy report, one whose slot lost WAL, one with a RESYNC_NEEDED partition
    CaptureStatus healthy = slot();
    CaptureStatus lost =
        new CaptureStatus(
            healthy.slot(),
            healthy.database(),
            CaptureStatus.State.OK,
            false,
            "lost",
            healthy.confirmedFlushLsn(),
            healthy.currentLsn(),
            healthy.behindBytes(),
            null);
    TargetStatus gap =
        StatusFixtures.pgTarget(
            List.of(
                new PartitionStatus(
                    "shop.public.orders",
                    0,
                    3L,
                    8L,
                    10L,
                    null,
                    null,
                    2L,
                    "RESYNC_NEEDED: records 4..7 were deleted before they were applied")),
            List.of());

    // Then only the last two need a resync; a missing slot (never started) does not
    assertThat(report(healthy, null, List.of(laggingTarget()), compares()).resyncNeeded())
        .isFalse();
    assertThat(report(lost, null, List.of(laggingTarget()), compares()).resyncNeeded()).isTrue();
    assertThat(report(healthy, null, List.of(gap), compares()).resyncNeeded()).isTrue();
    assertThat(
            report(
                    CaptureStatus.missing("cdc_compare_shop", "jdbc:postgresql://src/shop", "0/1"),
                    null,
                    List.of(laggingTarget()),
                    compares())
                .resyncNeeded())
        .isFalse();
  }
}
