package io.cdccompare.app;

import static io.cdccompare.operations.report.ReportFixtures.MARIA;
import static io.cdccompare.operations.report.ReportFixtures.PG;
import static io.cdccompare.operations.report.ReportFixtures.RUN;
import static io.cdccompare.operations.report.ReportFixtures.TASK;
import static io.cdccompare.operations.report.ReportFixtures.counts;
import static io.cdccompare.operations.report.ReportFixtures.entry;
import static io.cdccompare.operations.report.ReportFixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.operations.page.ChunkStrips;
import io.cdccompare.operations.page.PageData;
import io.cdccompare.operations.page.ReportPage;
import io.cdccompare.operations.page.RunHistory;
import io.cdccompare.operations.report.ReportOutcome;
import io.cdccompare.operations.report.ResultKeys;
import io.cdccompare.operations.report.TaskReport;
import io.cdccompare.operations.report.TaskReports;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.schemas.avro.ReportEntry;
import io.cdccompare.schemas.avro.ReportStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The report page of a big run in a real headless Chromium: a task of 1 000 tables on two targets,
 * one of which differs in 100 keys of every table (100 000 differing keys, every one kept in the
 * page), with 5 earlier runs in the history. It must be usable: the browser shows its first frame
 * within 2 s of the navigation, and the key pager pages. Prints the figure.
 */
class ReportPageScaleIT {
  private static final int TABLES = 1_000;
  private static final int KEYS_PER_TABLE = 100;
  private static final int CHUNKS = 10;

  @Test
  void aThousandTablesAndAHundredThousandKeysRenderInUnderTwoSeconds(@TempDir Path profile)
      throws Exception {
    // Given the report of a run of 1 000 tables, 100 000 failed keys on maria, all kept
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
            counts(1, TABLES * KEYS_PER_TABLE, 0, 0, 0)));
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
          List<String> failed = new ArrayList<>();
          if (c == 3 && p == 0) {
            for (int k = 0; k < KEYS_PER_TABLE; k++) {
              failed.add(Integer.toString(t * 1_000_000 + k));
            }
          }
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
    long start = System.nanoTime();
    String html =
        ReportPage.render(
            new PageData(
                "shop",
                Instant.now(),
                shown,
                ReportOutcome.of(shown),
                history,
                strips,
                Optional.empty(),
                List.of(),
                0));
    long writeMillis = (System.nanoTime() - start) / 1_000_000;
    Path file = Path.of("target", "report-page", "big-run.html").toAbsolutePath();
    Files.createDirectories(file.getParent());
    Files.writeString(file, html, StandardCharsets.UTF_8);

    // When Chromium opens the page
    ChromeDriver browser = Chromium.start(profile);
    try {
      browser.get(file.toUri().toString());
      Object firstFrame =
          ((JavascriptExecutor) browser)
              .executeAsyncScript(
                  "var done=arguments[arguments.length-1];"
                      + "requestAnimationFrame(function(){setTimeout(function(){"
                      + "var n=performance.getEntriesByType('navigation')[0];"
                      + "done([performance.now(), n.domContentLoadedEventEnd, n.loadEventEnd]);"
                      + "},0);});");
      @SuppressWarnings("unchecked")
      List<Number> times = (List<Number>) firstFrame;
      System.out.printf(
          "report page of %d tables, %d differing keys: %d KB written in %d ms; in Chromium DOM"
              + " ready %.0f ms, load %.0f ms, first frame after load %.0f ms after navigation%n",
          TABLES,
          TABLES * KEYS_PER_TABLE,
          html.length() / 1024,
          writeMillis,
          times.get(1).doubleValue(),
          times.get(2).doubleValue(),
          times.get(0).doubleValue());

      // Then it has rendered within 2 s, without a console error
      assertThat(times.get(0).doubleValue()).as("ms to the first frame").isLessThan(2_000);
      assertThat(Chromium.consoleErrors(browser)).isEmpty();
      assertThat(browser.findElements(org.openqa.selenium.By.cssSelector("table.grid tbody tr")))
          .hasSize(TABLES + 1);

      // And a folded table's keys appear when it is opened, 50 of them, the next 50 on "next"
      String pager =
          (String)
              ((JavascriptExecutor) browser)
                  .executeAsyncScript(
                      "var done=arguments[arguments.length-1];"
                          + "var table=document.getElementById('t1');"
                          + "var folded=table.querySelectorAll('li').length;"
                          + "table.open=true;"
                          + "setTimeout(function(){"
                          + "var box=table.querySelector('.keys[data-keys]');"
                          + "var opened=box.querySelectorAll('li').length;"
                          + "box.querySelector('.next').click();"
                          + "done(folded+' '+opened+' '+box.querySelector('li').textContent+' '"
                          + "+box.querySelector('.pos').textContent);},50);");
      assertThat(pager).isEqualTo("0 50 50 51–100 of 100");
      assertThat(Chromium.consoleErrors(browser)).isEmpty();
    } finally {
      browser.quit();
    }
  }
}
