package io.cdccompare.operations.page;

import static io.cdccompare.report.read.ReportFixtures.MARIA;
import static io.cdccompare.report.read.ReportFixtures.PG;
import static io.cdccompare.report.read.ReportFixtures.RUN;
import static io.cdccompare.report.read.ReportFixtures.TASK;
import static io.cdccompare.report.read.ReportFixtures.counts;
import static io.cdccompare.report.read.ReportFixtures.entry;
import static io.cdccompare.report.read.ReportFixtures.result;

import io.cdccompare.report.read.ReportOutcome;
import io.cdccompare.report.read.ResultKeys;
import io.cdccompare.report.read.TaskReport;
import io.cdccompare.report.read.TaskReports;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The report page of a big run, the one the page's scale is judged on: task {@code TASK} of {@value
 * #TABLES} tables on two targets, {@code PG} in sync and {@code MARIA} differing in {@value
 * #KEYS_PER_TABLE} keys of every table ({@value #DIFFERING_KEYS} failed keys, every one kept in the
 * page), {@value #CHUNKS} chunks of two partitions per table, with 5 earlier runs in the history.
 * More than 20 tables differ, so every table is folded.
 *
 * <p>One definition for the two users that must see the same page: {@code app}'s {@code
 * ReportPageScaleIT} checks that it works in a browser, {@code bench}'s {@code ReportPageLoad}
 * times it. Both take it from this module's test-jar.
 */
public final class BigRunPage {
  public static final int TABLES = 1_000;
  public static final int KEYS_PER_TABLE = 100;
  public static final int CHUNKS = 10;
  public static final int DIFFERING_KEYS = TABLES * KEYS_PER_TABLE;

  private BigRunPage() {}

  /** The page's data, with {@code writtenAt} as its time of writing and no lag figures. */
  public static PageData data(Instant writtenAt) {
    List<ReportEntry> entries = new ArrayList<>();
    List<ChunkResult> results = new ArrayList<>();
    RunHistory history = new RunHistory();
    ChunkStrips strips = new ChunkStrips();
    entries.add(
        entry(
            PG,
            null,
            ReportStatus.IN_SYNC,
            TABLES * CHUNKS,
            TABLES * CHUNKS,
            counts(1, 0, 0, 0, 0)));
    entries.add(
        entry(
            MARIA,
            null,
            ReportStatus.DIFFERENCES,
            TABLES * CHUNKS,
            TABLES * CHUNKS,
            counts(1, DIFFERING_KEYS, 0, 0, 0)));
    for (int t = 0; t < TABLES; t++) {
      String table = "public.t" + t;
      entries.add(
          entry(PG, table, ReportStatus.IN_SYNC, CHUNKS, CHUNKS, counts(10_000, 0, 0, 0, 0)));
      entries.add(
          entry(
              MARIA,
              table,
              ReportStatus.DIFFERENCES,
              CHUNKS,
              CHUNKS,
              counts(10_000 - KEYS_PER_TABLE, KEYS_PER_TABLE, 0, 0, 0)));
      strips.want(TASK, RUN, table, PG);
      strips.want(TASK, RUN, table, MARIA);
      for (int c = 1; c <= CHUNKS; c++) {
        for (int p = 0; p < 2; p++) {
          results.add(result(PG, table, c, p).setCounts(counts(500, 0, 0, 0, 0)).build());
          List<String> failed = failed(t, c, p);
          results.add(
              result(MARIA, table, c, p)
                  .setCounts(counts(500 - failed.size(), failed.size(), 0, 0, 0))
                  .setFailedKeys(failed)
                  .build());
        }
      }
    }
    for (int run = 0; run < 5; run++) {
      history.add(
          result(PG, "public.t0", 1, 0)
              .setRunId("2026030" + run + "T000000Z-old")
              .setVerifiedAt(
                  Instant.parse("2026-03-0" + (run + 1) + "T00:00:00Z").minusSeconds(86400 * 2))
              .setCounts(counts(1000, run, 0, 0, 1))
              .build());
    }
    results.forEach(history::add);
    results.forEach(strips::add);
    List<TaskReport> shown =
        TaskReports.withKeys(
            TaskReports.of(entries, Optional.empty(), List.of(PG, MARIA)),
            ResultKeys.of(results, 0));
    return new PageData(
        "shop",
        writtenAt,
        shown,
        ReportOutcome.of(shown),
        history,
        strips,
        Optional.empty(),
        List.of(),
        0);
  }

  /**
   * The failed keys of table {@code t}'s chunk {@code c}, partition {@code p} on {@code MARIA}:
   * {@value #KEYS_PER_TABLE} keys {@code t * 1 000 000 + k} in chunk 3, partition 0; none
   * elsewhere.
   */
  private static List<String> failed(int t, int c, int p) {
    List<String> failed = new ArrayList<>();
    if (c == 3 && p == 0) {
      for (int k = 0; k < KEYS_PER_TABLE; k++) {
        failed.add(Integer.toString(t * 1_000_000 + k));
      }
    }
    return failed;
  }
}
