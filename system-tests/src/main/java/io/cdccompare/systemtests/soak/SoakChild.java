package io.cdccompare.systemtests.soak;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A program of the soak in a JVM of its own, so that it can be killed with {@code kill -9}: {@code
 * capture <file>} runs the capture as {@code cdc-compare capture} does and prints {@code STREAMING}
 * once it streams; {@code compare <file> <start-over>} runs one compare task and prints {@code DONE
 * <table> <run-id> <chunks>} per table. Started through {@code ParentWatchdog}.
 */
public final class SoakChild {
  private SoakChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = load(Path.of(args[1]));
    switch (args[0]) {
      case "capture" -> capture(settings);
      case "compare" -> compare(settings, Boolean.parseBoolean(args[2]));
      default -> throw new IllegalArgumentException("unknown program " + args[0]);
    }
  }

  private static void capture(Map<String, String> settings) throws Exception {
    Capture capture = new Capture(CaptureConfig.of(settings));
    Runtime.getRuntime().addShutdownHook(new Thread(capture::stop, "capture-stop"));
    Thread announce =
        new Thread(
            () -> {
              try {
                while (!capture.awaitStreaming(Duration.ofMillis(200))) {
                  // until it streams or the JVM ends
                }
                say("STREAMING");
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "announce-streaming");
    announce.setDaemon(true);
    announce.start();
    capture.run();
    System.exit(capture.failure().isPresent() ? 1 : 0);
  }

  private static void compare(Map<String, String> settings, boolean startOver) throws Exception {
    CompareRun.Summary summary = new CompareRun(CompareConfig.of(settings), startOver).run();
    for (CompareRun.TableDone done : summary.tables()) {
      say("DONE " + done.table() + " " + done.runId() + " " + done.chunks());
    }
    System.exit(summary.complete() ? 0 : 2);
  }

  static Map<String, String> load(Path file) throws Exception {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    p.stringPropertyNames().forEach(k -> settings.put(k, p.getProperty(k)));
    return settings;
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
