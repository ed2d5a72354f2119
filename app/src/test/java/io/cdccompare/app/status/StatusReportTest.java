package io.cdccompare.app.status;

import static io.cdccompare.app.status.StatusFixtures.compares;
import static io.cdccompare.app.status.StatusFixtures.laggingTarget;
import static io.cdccompare.app.status.StatusFixtures.report;
import static io.cdccompare.app.status.StatusFixtures.slot;
import static io.cdccompare.app.status.StatusFixtures.unreachableTarget;
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
}
