package io.cdccompare.app;

import static io.cdccompare.operations.page.BigRunPage.DIFFERING_KEYS;
import static io.cdccompare.operations.page.BigRunPage.TABLES;
import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.operations.page.BigRunPage;
import io.cdccompare.operations.page.Chromium;
import io.cdccompare.operations.page.PageLoad;
import io.cdccompare.operations.page.ReportPage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The report page of a big run in a real headless Chromium ({@link BigRunPage}: 1 000 tables on two
 * targets, one of which differs in 100 keys of every table, 100 000 differing keys, every one kept
 * in the page). It must work at that size: the page loads and paints its content without a console
 * error, the grid shows every table with the differing counts, every table is folded, and a folded
 * table's keys appear when it is opened and page. How fast is {@code bench}'s {@code
 * ReportPageLoad}'s figure (bench/README.md): no time is asserted here.
 */
class ReportPageScaleIT {

  @Test
  void aThousandTablesAndAHundredThousandKeysRenderFoldedAndPage(@TempDir Path profile)
      throws Exception {
    // Given the page of a run of 1 000 tables, 100 000 failed keys on maria, all kept
    String html = ReportPage.render(BigRunPage.data(Instant.now()));
    Path file = Path.of("target", "report-page", "big-run.html").toAbsolutePath();
    Files.createDirectories(file.getParent());
    Files.writeString(file, html, StandardCharsets.UTF_8);

    // When Chromium opens it
    ChromeDriver browser = Chromium.start(profile);
    try {
      browser.get(file.toUri().toString());
      PageLoad load = PageLoad.afterNextFrame(browser);

      // Then it has loaded and painted its content, without a console error
      assertThat(load.readyState()).isEqualTo("complete");
      assertThat(load.firstContentfulPaintMs()).as("first contentful paint").isPresent();
      assertThat(Chromium.consoleErrors(browser)).isEmpty();

      // And the grid shows every table, maria's total with the 100 000 differing keys
      WebElement grid = browser.findElement(By.cssSelector("table.grid"));
      assertThat(grid.isDisplayed()).isTrue();
      assertThat(grid.getSize().getHeight()).as("grid height in px").isGreaterThan(TABLES);
      assertThat(grid.findElements(By.cssSelector("tbody tr"))).hasSize(TABLES + 1);
      assertThat(grid.findElement(By.cssSelector("tr.total")).getText())
          .isEqualTo("(all tables) IN_SYNC DIFFERENCES " + DIFFERING_KEYS);
      assertThat(grid.findElements(By.cssSelector("tbody td.s-DIFFERENCES"))).hasSize(TABLES + 1);
      assertThat(browser.findElement(By.id("outcome")).getText()).isEqualTo("DIFFERENCES");

      // And every table is folded, its body not yet built
      List<WebElement> tables = browser.findElements(By.cssSelector("details.table"));
      assertThat(tables).hasSize(TABLES);
      assertThat(browser.findElements(By.cssSelector("details.table[open]"))).isEmpty();
      assertThat(browser.findElements(By.cssSelector("details.table script.lazy"))).hasSize(TABLES);
      assertThat(browser.findElements(By.cssSelector(".keys"))).isEmpty();

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
      assertThat(browser.findElements(By.cssSelector("#t1 svg.strip rect.c-DIFFERENCES")))
          .isNotEmpty();
      assertThat(Chromium.consoleErrors(browser)).isEmpty();
    } finally {
      browser.quit();
    }
  }
}
