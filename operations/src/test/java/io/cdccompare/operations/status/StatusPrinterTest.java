package io.cdccompare.operations.status;

import static io.cdccompare.operations.status.StatusFixtures.compares;
import static io.cdccompare.operations.status.StatusFixtures.followingTarget;
import static io.cdccompare.operations.status.StatusFixtures.laggingTarget;
import static io.cdccompare.operations.status.StatusFixtures.report;
import static io.cdccompare.operations.status.StatusFixtures.slot;
import static io.cdccompare.operations.status.StatusFixtures.unreachableTarget;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusPrinterTest {

  @Test
  void everyPartIsPrintedAlignedWithTotalsAndTheUnreachableTargetInOneLine() {
    // Given a slot, a lagging target with a missing topic, an unreachable target and a compare
    StatusReport report =
        report(slot(), null, List.of(laggingTarget(), unreachableTarget()), compares());

    // When
    String text = print(report);

    // Then
    assertThat(text)
        .isEqualTo(
            """
            cdc-compare status  topic.prefix shop  at 2026-01-01T12:00:00Z

            CAPTURE  slot cdc_compare_shop  jdbc:postgresql://src:5432/shop
              active  wal_status  confirmed_flush_lsn  current_lsn  behind
              no      reserved    0/1A2B3C8            0/1A31000    24.1 KiB (24680 bytes)

            TARGETS  kafka kafka:9092
              pg  jdbc:postgresql://db:5432/target  application verify-pg
                topic               partition  checkpoint  end  lag  lag_s  group
                shop.public.orders          0           3   10    6   90.3      2
                shop.public.orders          1           3    4    0    0.0      -
                total                                             6   90.3
                shop.public.items  topic does not exist: nothing captured yet
              maria  jdbc:mariadb://127.0.0.1:1/x  UNREACHABLE  cannot connect to target maria\
             at jdbc:mariadb://127.0.0.1:1/x as root: Connection refused

            COMPARES  shop.compare.report
              task   target  run  status       noted  verified  updated
              daily  pg      r1   IN_PROGRESS     12         9  2026-01-01T11:59:00Z
            """);
  }

  @Test
  void aVerifyOnlyTargetShowsTheFollowedGroupAndItsLagBesideTheVerifiers() {
    // Given a target in verify-only mode following group jdbc-sink
    StatusReport report = report(null, null, List.of(followingTarget()), compares());

    // When
    String text = print(report);

    // Then
    assertThat(text.lines())
        .containsSubsequence(
            "  pg  jdbc:postgresql://db:5432/target  application verify-pg  verify-only, follows"
                + " group jdbc-sink",
            "    topic               partition  checkpoint  end  lag  lag_s  group  follow"
                + "  follow_lag",
            "    shop.public.orders          0           3   10    6   90.3      2       9"
                + "           1",
            "    shop.public.orders          1           3    4    0    0.0      -       -"
                + "           4",
            "    total                                             6   90.3                         "
                + " 5");
  }

  @Test
  void aMissingSlotAndAMissingReportAreFactsNotFailures() {
    // Given
    CaptureStatus missing =
        CaptureStatus.missing("cdc_compare_shop", "jdbc:postgresql://src:5432/shop", "0/1A31000");
    StatusReport report =
        report(
            missing, null, List.of(laggingTarget()), CompareStatus.noReport("shop.compare.report"));

    // When
    String text = print(report);

    // Then
    assertThat(text)
        .contains(
            "CAPTURE  slot cdc_compare_shop  jdbc:postgresql://src:5432/shop  MISSING: no such"
                + " replication slot (source WAL at 0/1A31000)\n")
        .contains("COMPARES  shop.compare.report  does not exist: no verifier has run yet\n");
    assertThat(report.complete()).isTrue();
  }

  @Test
  void unreachableSourceKafkaAndReportAreEachNamedInTheirLine() {
    // Given
    TargetStatus checkpointsOnly =
        StatusFixtures.pgTarget(
            List.of(
                new PartitionStatus(
                    "shop.public.orders", 0, 3L, null, null, null, null, null, null)),
            List.of());
    StatusReport report =
        report(
            CaptureStatus.unreachable(
                "cdc_compare_shop", "jdbc:postgresql://src:5432/shop", "no answer within 15 s"),
            "Kafka did not answer within 15 s",
            List.of(checkpointsOnly),
            CompareStatus.unreachable("shop.compare.report", "Kafka did not answer within 15 s"));

    // When
    String text = print(report);

    // Then
    assertThat(text.lines())
        .contains(
            "CAPTURE  slot cdc_compare_shop  jdbc:postgresql://src:5432/shop  UNREACHABLE  no"
                + " answer within 15 s",
            "TARGETS  kafka kafka:9092  UNREACHABLE  Kafka did not answer within 15 s (offsets"
                + " and lag unknown)",
            "    shop.public.orders          0           3    -    -      -      -",
            "COMPARES  shop.compare.report  UNREACHABLE  Kafka did not answer within 15 s")
        .noneMatch(l -> l.contains("total"));
    assertThat(report.complete()).isFalse();
  }

  @Test
  void aTargetReadInPartNamesWhatFailedAfterItsRowsAndProblemsAreShown() {
    // Given
    TargetStatus partial =
        new TargetStatus(
            "pg",
            "verify-pg",
            "jdbc:postgresql://db:5432/target",
            "kafka: offsets of consumer group verify-pg: not authorized",
            "no table \"cdc\".\"cdc_compare_checkpoints\" yet: no verifier has applied to this"
                + " target",
            List.of(
                new PartitionStatus(
                    "shop.public.orders",
                    0,
                    3L,
                    6L,
                    10L,
                    6L,
                    1.0,
                    null,
                    "RESYNC_NEEDED: records 4..5 were deleted before this target applied them")),
            List.of());

    // When
    String text = print(report(null, null, List.of(partial), compares()));

    // Then
    assertThat(text.lines())
        .containsSubsequence(
            "CAPTURE  not shown: the targets file has no source.* keys",
            "  pg  jdbc:postgresql://db:5432/target  application verify-pg",
            "    no table \"cdc\".\"cdc_compare_checkpoints\" yet: no verifier has applied to this"
                + " target",
            "    shop.public.orders-0  RESYNC_NEEDED: records 4..5 were deleted before this target"
                + " applied them",
            "    pg  UNREACHABLE  kafka: offsets of consumer group verify-pg: not authorized");
  }

  @Test
  void byteCountsUseBinaryUnitsWithOneDecimal() {
    assertThat(StatusPrinter.bytes(0)).isEqualTo("0 B");
    assertThat(StatusPrinter.bytes(1023)).isEqualTo("1023 B");
    assertThat(StatusPrinter.bytes(1024)).isEqualTo("1.0 KiB");
    assertThat(StatusPrinter.bytes(24_680)).isEqualTo("24.1 KiB");
    assertThat(StatusPrinter.bytes(1024 * 1024 - 1)).isEqualTo("1.0 MiB");
    assertThat(StatusPrinter.bytes(3L * 1024 * 1024 * 1024 + 512L * 1024 * 1024))
        .isEqualTo("3.5 GiB");
  }

  private static String print(StatusReport report) {
    StringWriter text = new StringWriter();
    StatusPrinter.print(report, new PrintWriter(text));
    return text.toString().replace(System.lineSeparator(), "\n");
  }
}
