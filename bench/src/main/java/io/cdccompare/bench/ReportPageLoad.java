package io.cdccompare.bench;

import io.cdccompare.operations.page.BigRunPage;
import io.cdccompare.operations.page.Chromium;
import io.cdccompare.operations.page.PageData;
import io.cdccompare.operations.page.PageLoad;
import io.cdccompare.operations.page.ReportPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * How fast the report page of a big run shows in a browser: {@link BigRunPage} (1 000 tables, 100
 * 000 differing keys, a 6 MB page) written by {@link ReportPage} and opened in headless Chromium
 * the way {@code app}'s {@code ReportPageScaleIT} opens it ({@link Chromium#start} with a fresh
 * profile, {@code get} of the file, {@link PageLoad#afterNextFrame}). Every round renders the page
 * again from the same data (built once) and starts a fresh browser, so each is a first visit, as in
 * the test. Prints each round on standard error, then per figure the median, the range and every
 * round's value: the page's rendering ({@link ReportPage#render}, in the JVM), and in Chromium, in
 * ms after the navigation started, DOM content loaded, load, first contentful paint and the first
 * frame after the load (the figure the test used to require under 2 s).
 *
 * <p>A round whose page is broken (not every table in the grid, a console error, no content
 * painted) stops the run: its times would mean nothing. Correctness is {@code ReportPageScaleIT}'s;
 * this only times, and gates nothing.
 *
 * <p>Run: see bench/README.md. Arguments: {@code [--rounds=N]} (default 5).
 */
public final class ReportPageLoad {
  private ReportPageLoad() {}

  /** One round's figures, in ms. */
  private record Round(double renderMs, PageLoad load, int pageKb) {}

  public static void main(String[] args) throws Exception {
    int rounds = 5;
    for (String arg : args) {
      if (arg.startsWith("--rounds=")) {
        rounds = Integer.parseInt(arg.substring("--rounds=".length()));
      } else {
        throw new IllegalArgumentException("unknown argument " + arg + "; usage: [--rounds=N]");
      }
    }
    PageData data = BigRunPage.data(Instant.now());
    Path dir = Files.createTempDirectory("report-page-load");
    try {
      List<Round> measured = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        Round round = round(data, dir, r);
        measured.add(round);
        System.err.printf(
            Locale.ROOT,
            "round %d: render %.0f ms; DOM content loaded %.0f ms, load %.0f ms, first contentful"
                + " paint %.0f ms, first frame after load %.0f ms%n",
            r,
            round.renderMs(),
            round.load().domContentLoadedMs(),
            round.load().loadMs(),
            round.load().firstContentfulPaintMs().orElseThrow(),
            round.load().frameAfterLoadMs());
      }
      print(measured);
    } finally {
      deleteTree(dir);
    }
  }

  private static Round round(PageData data, Path dir, int round)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    String html = ReportPage.render(data);
    double renderMs = (System.nanoTime() - start) / 1e6;
    Path file = dir.resolve("big-run.html");
    Files.writeString(file, html, StandardCharsets.UTF_8);
    ChromeDriver browser = Chromium.start(dir.resolve("profile-" + round));
    try {
      browser.get(file.toUri().toString());
      PageLoad load = PageLoad.afterNextFrame(browser);
      int rows = browser.findElements(By.cssSelector("table.grid tbody tr")).size();
      List<String> errors = Chromium.consoleErrors(browser);
      if (rows != BigRunPage.TABLES + 1
          || !errors.isEmpty()
          || load.firstContentfulPaintMs().isEmpty()) {
        throw new IllegalStateException(
            "round "
                + round
                + ": the page is broken (grid rows "
                + rows
                + ", console errors "
                + errors
                + ", contentful paint "
                + load.firstContentfulPaintMs().isPresent()
                + "): not timing it");
      }
      return new Round(renderMs, load, html.length() / 1024);
    } finally {
      browser.quit();
    }
  }

  private static void print(List<Round> rounds) {
    System.out.printf(
        "report page of %d tables, %d differing keys (%d KB), %d rounds, each a fresh headless"
            + " Chromium; ms, median (min–max) [rounds in order]%n",
        BigRunPage.TABLES, BigRunPage.DIFFERING_KEYS, rounds.get(0).pageKb(), rounds.size());
    System.out.println("| figure | median | min–max | rounds |");
    System.out.println("|---|---|---|---|");
    row("render (ReportPage, Java)", rounds, Round::renderMs);
    row("DOM content loaded", rounds, r -> r.load().domContentLoadedMs());
    row("load", rounds, r -> r.load().loadMs());
    row("first contentful paint", rounds, r -> r.load().firstContentfulPaintMs().orElseThrow());
    row("first frame after load", rounds, r -> r.load().frameAfterLoadMs());
  }

  private static void row(String figure, List<Round> rounds, ToDoubleFunction<Round> of) {
    double[] values = rounds.stream().mapToDouble(of).toArray();
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    System.out.printf(
        Locale.ROOT,
        "| %s | %.0f | %.0f–%.0f | %s |%n",
        figure,
        median,
        sorted[0],
        sorted[n - 1],
        Arrays.stream(values)
            .mapToObj(v -> String.format(Locale.ROOT, "%.0f", v))
            .collect(Collectors.joining(", ")));
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
