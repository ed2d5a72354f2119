package io.cdccompare.report.read;

import java.util.List;
import java.util.Objects;

/**
 * What the report shows of one task on one target: the target's totals over every table, then one
 * row per table in table-name order.
 */
public record TargetReport(String target, ReportRow total, List<ReportRow> tables) {
  public TargetReport {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(total, "total");
    tables = List.copyOf(tables);
  }

  /** Every row: the totals first, then the tables. */
  public List<ReportRow> rows() {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(total), tables.stream())
        .toList();
  }
}
