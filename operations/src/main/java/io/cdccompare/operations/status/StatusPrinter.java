package io.cdccompare.operations.status;

import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link StatusReport} as the one screen of {@code cdc-compare status}: the capture's
 * slot, each target's lag per table-topic partition with its total, and the compares. A part that
 * could not be read is one line naming it, followed by {@code UNREACHABLE} and the reason; every
 * other part is printed in full.
 */
public final class StatusPrinter {
  private static final String NONE = "-";

  private StatusPrinter() {}

  public static void print(StatusReport report, PrintWriter out) {
    out.printf(
        "cdc-compare status  topic.prefix %s  at %s%n",
        report.topicPrefix(), report.readAt().truncatedTo(ChronoUnit.SECONDS));
    out.println();
    capture(report.capture(), out);
    out.println();
    targets(report, out);
    out.println();
    compares(report.compares(), out);
    out.flush();
  }

  private static void capture(CaptureStatus capture, PrintWriter out) {
    if (capture == null) {
      out.println("CAPTURE  not shown: the targets file has no source.* keys");
      return;
    }
    String head = "CAPTURE  slot " + capture.slot() + "  " + capture.database();
    switch (capture.state()) {
      case UNREACHABLE -> out.println(head + "  UNREACHABLE  " + capture.unreachable());
      case MISSING ->
          out.println(
              head
                  + "  MISSING: no such replication slot (source WAL at "
                  + capture.currentLsn()
                  + ")");
      case OK -> {
        out.println(head);
        TextTable table =
            new TextTable(
                "  ", "active", "wal_status", "confirmed_flush_lsn", "current_lsn", "behind");
        table.row(
            capture.active() ? "yes" : "no",
            orNone(capture.walStatus()),
            orNone(capture.confirmedFlushLsn()),
            orNone(capture.currentLsn()),
            capture.behindBytes() == null
                ? NONE
                : bytes(capture.behindBytes()) + " (" + capture.behindBytes() + " bytes)");
        table.lines().forEach(out::println);
      }
    }
  }

  private static void targets(StatusReport report, PrintWriter out) {
    out.println(
        "TARGETS  kafka "
            + report.bootstrapServers()
            + (report.kafkaUnreachable() == null
                ? ""
                : "  UNREACHABLE  " + report.kafkaUnreachable() + " (offsets and lag unknown)"));
    for (TargetStatus target : report.targets()) {
      if (target.unreachable() != null && target.partitions().isEmpty()) {
        out.println(
            "  "
                + target.name()
                + "  "
                + target.database()
                + "  UNREACHABLE  "
                + target.unreachable());
        continue;
      }
      boolean follows = target.followGroup() != null;
      out.println(
          "  "
              + target.name()
              + "  "
              + target.database()
              + "  application "
              + target.applicationId()
              + (follows ? "  verify-only, follows group " + target.followGroup() : ""));
      if (target.note() != null) {
        out.println("    " + target.note());
      }
      if (!target.partitions().isEmpty()) {
        TextTable table =
            follows
                ? new TextTable(
                    "    ",
                    "topic",
                    "partition>",
                    "checkpoint>",
                    "end>",
                    "lag>",
                    "lag_s>",
                    "group>",
                    "follow>",
                    "follow_lag>")
                : new TextTable(
                    "    ",
                    "topic",
                    "partition>",
                    "checkpoint>",
                    "end>",
                    "lag>",
                    "lag_s>",
                    "group>");
        for (PartitionStatus p : target.partitions()) {
          List<String> row =
              new ArrayList<>(
                  List.of(
                      p.topic(),
                      Integer.toString(p.partition()),
                      orNone(p.checkpoint()),
                      orNone(p.endOffset()),
                      orNone(p.lagRecords()),
                      seconds(p.lagSeconds()),
                      orNone(p.groupOffset())));
          if (follows) {
            row.add(orNone(p.followOffset()));
            row.add(orNone(p.followLagRecords()));
          }
          table.row(row.toArray(String[]::new));
        }
        if (report.kafkaUnreachable() == null) {
          List<String> total =
              new ArrayList<>(
                  List.of(
                      "total",
                      "",
                      "",
                      "",
                      Long.toString(target.lagRecords()),
                      seconds(target.lagSeconds()),
                      ""));
          if (follows) {
            total.add("");
            total.add(Long.toString(target.followLagRecords()));
          }
          table.row(total.toArray(String[]::new));
        }
        table.lines().forEach(out::println);
      }
      for (PartitionStatus p : target.partitions()) {
        if (p.problem() != null) {
          out.println("    " + p.topic() + "-" + p.partition() + "  " + p.problem());
        }
      }
      for (String topic : target.missingTopics()) {
        out.println("    " + topic + "  topic does not exist: nothing captured yet");
      }
      if (target.unreachable() != null) {
        out.println("    " + target.name() + "  UNREACHABLE  " + target.unreachable());
      }
    }
  }

  private static void compares(CompareStatus compares, PrintWriter out) {
    String head = "COMPARES  " + compares.reportTopic();
    if (compares.unreachable() != null) {
      out.println(head + "  UNREACHABLE  " + compares.unreachable());
      return;
    }
    if (!compares.reportExists()) {
      out.println(head + "  does not exist: no verifier has run yet");
      return;
    }
    out.println(head);
    if (compares.entries().isEmpty()) {
      out.println("  no chunk noted yet");
      return;
    }
    TextTable table =
        new TextTable("  ", "task", "target", "run", "status", "noted>", "verified>", "updated");
    for (CompareStatus.Entry e : compares.entries()) {
      table.row(
          e.task(),
          e.target(),
          orNone(e.runId()),
          e.status(),
          Long.toString(e.chunksNoted()),
          Long.toString(e.chunksVerified()),
          e.lastUpdate() == null ? NONE : e.lastUpdate().toString());
    }
    table.lines().forEach(out::println);
  }

  /** A byte count in binary units with one decimal: {@code 812 B}, {@code 24.1 KiB}. */
  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = bytes;
    int unit = -1;
    // 1023.96 KiB would print as 1024.0 KiB: take the next unit from 1023.95 on
    while (value >= 1023.95 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** Seconds with one decimal, {@code -} when unknown. */
  static String seconds(Double seconds) {
    return seconds == null ? NONE : String.format(Locale.ROOT, "%.1f", seconds);
  }

  private static String orNone(Object value) {
    return value == null ? NONE : value.toString();
  }
}
