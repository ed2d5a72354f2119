package io.cdccompare.operations.status;

import java.time.Instant;
import java.util.List;

/** Status reports as the collector builds them, for the printer's tests. */
final class StatusFixtures {
  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private StatusFixtures() {}

  static CaptureStatus slot() {
    return new CaptureStatus(
        "cdc_compare_shop",
        "jdbc:postgresql://src:5432/shop",
        CaptureStatus.State.OK,
        false,
        "reserved",
        "0/1A2B3C8",
        "0/1A31000",
        24_680L,
        null);
  }

  static TargetStatus laggingTarget() {
    return pgTarget(
        List.of(
            new PartitionStatus("shop.public.orders", 0, 3L, 0L, 10L, 6L, 90.25, 2L, null),
            new PartitionStatus("shop.public.orders", 1, 3L, 0L, 4L, 0L, 0.0, null, null)),
        List.of("shop.public.items"));
  }

  /** Target "pg", read without a problem, with these partitions and tables not yet applied. */
  static TargetStatus pgTarget(List<PartitionStatus> partitions, List<String> notApplied) {
    return new TargetStatus(
        "pg", "verify-pg", "jdbc:postgresql://db:5432/target", null, null, partitions, notApplied);
  }

  /** Target "pg" in verify-only mode, following the group "jdbc-sink". */
  static TargetStatus followingTarget() {
    return new TargetStatus(
        "pg",
        "verify-pg",
        "jdbc:postgresql://db:5432/target",
        null,
        null,
        List.of(
            new PartitionStatus("shop.public.orders", 0, 3L, 0L, 10L, 6L, 90.25, 2L, null, 9L, 1L),
            new PartitionStatus(
                "shop.public.orders", 1, 3L, 0L, 4L, 0L, 0.0, null, null, null, 4L)),
        List.of(),
        "jdbc-sink");
  }

  static TargetStatus unreachableTarget() {
    return TargetStatus.unreachable(
        "maria",
        "verify-maria",
        "jdbc:mariadb://127.0.0.1:1/x",
        "cannot connect to target maria at jdbc:mariadb://127.0.0.1:1/x as root: Connection"
            + " refused");
  }

  static CompareStatus compares() {
    return new CompareStatus(
        "shop.compare.report",
        true,
        List.of(
            new CompareStatus.Entry(
                "daily", "pg", "r1", "IN_PROGRESS", 12, 9, NOW.minusSeconds(60))),
        null);
  }

  static StatusReport report(
      CaptureStatus capture, String kafka, List<TargetStatus> targets, CompareStatus compares) {
    return new StatusReport("shop", NOW, "kafka:9092", capture, kafka, targets, compares);
  }
}
