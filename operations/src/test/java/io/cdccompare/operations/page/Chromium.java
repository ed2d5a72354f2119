package io.cdccompare.operations.page;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's headless Chromium driven through its chromedriver (Selenium), for the report page's
 * browser tests ({@code app}) and its load benchmark ({@code bench}), which both take it from this
 * module's test-jar. When {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is missing it
 * installs them with {@code apt-get install -y chromium chromium-driver} and says so; when that
 * fails the test fails with what to install — it never skips.
 */
public final class Chromium {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private Chromium() {}

  /** Installs Chromium and chromedriver when missing, or fails naming what is missing. */
  static synchronized void ensureInstalled() throws IOException, InterruptedException {
    if (installed()) {
      return;
    }
    System.err.println(
        "[report page tests] "
            + BROWSER
            + " or "
            + DRIVER
            + " is missing: installing them with apt-get install -y chromium chromium-driver");
    String log = "";
    for (List<String> command :
        List.of(
            List.of("apt-get", "update", "-q"),
            List.of("apt-get", "install", "-y", "-q", "chromium", "chromium-driver"))) {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
      Process process;
      try {
        process = builder.start();
      } catch (IOException e) {
        log = e.toString();
        break;
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        log = String.join(" ", command) + " failed: " + tail(output);
        break;
      }
    }
    if (!installed()) {
      throw new AssertionError(
          "the report page's browser tests need Debian's chromium and chromium-driver ("
              + BROWSER
              + ", "
              + DRIVER
              + ") and they could not be installed: "
              + log
              + " — install them with: apt-get install -y chromium chromium-driver");
    }
    System.err.println("[report page tests] installed chromium and chromium-driver");
  }

  private static boolean installed() {
    return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }

  /** A headless browser with its console log kept, profile in {@code profile}; quit it. */
  public static ChromeDriver start(Path profile) throws IOException, InterruptedException {
    ensureInstalled();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1400",
        "--user-data-dir=" + profile.toAbsolutePath());
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DRIVER.toFile())
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }

  /** The console messages of level SEVERE (errors, uncaught exceptions, failed loads) so far. */
  public static List<String> consoleErrors(ChromeDriver browser) {
    return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }
}
