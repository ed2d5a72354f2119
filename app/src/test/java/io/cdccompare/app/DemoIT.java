package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.ExitCode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README's first command as a user runs it: {@code cdc-compare demo} in its own process, to the
 * end (smaller than the default so the test run stays short), and stopped with SIGTERM in the
 * middle, as a script or Kubernetes stops it (Ctrl-C's SIGINT runs the same shutdown hooks; it is
 * sent to a capture in {@link StopOnSigtermIT}). Either way nothing of the environment is left
 * behind.
 */
class DemoIT {
  private static final Logger LOG = LoggerFactory.getLogger(DemoIT.class);

  /** The bound within which docs/commands.md says the demo stops. */
  private static final Duration STOP_BOUND = Duration.ofSeconds(30);

  private static final Pattern ENV_ROOT = Pattern.compile("the demo's files are in (\\S+)");

  @Test
  void theDemoShowsTheInjectedDifferencesByKeyOnTargetBAndACleanTargetA(@TempDir Path dir)
      throws Exception {
    // Given the demo, started as a user starts it
    Process process = start(dir, "--rows", "20000");

    // When it runs to its end
    List<String> lines = readUntil(process, line -> false);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();

    // Then it succeeded, and the second report shows on target b exactly the injected rows by key
    String out = String.join("\n", lines);
    assertThat(process.exitValue()).as(out).isEqualTo(ExitCode.OK.code());
    assertThat(lines).anyMatch(l -> l.startsWith("[8/9] Full compare again"));
    List<String> second = lines.subList(indexOf(lines, "[8/9]"), indexOf(lines, "[9/9]"));
    assertThat(second)
        .anyMatch(row("b", "customers", "DIFFERENCES", 1, 0, 1))
        .anyMatch(row("b", "orders", "DIFFERENCES", 0, 1, 0))
        .anyMatch(row("b", "all_types", "IN_SYNC", 0, 0, 0));
    assertThat(keysUnder(second, "failed keys (1):")).isEqualTo("42");
    assertThat(keysUnder(second, "missed keys (1):")).isEqualTo("14,2");
    assertThat(keysUnder(second, "extra keys (1):")).isEqualTo("1000000001");
    for (String table : List.of("customers", "orders", "all_types")) {
      assertThat(second)
          .as("target a, table %s", table)
          .anyMatch(row("a", table, "IN_SYNC", 0, 0, 0));
    }
    // And the first report, before the injection, found both targets in sync on every table
    List<String> first = lines.subList(indexOf(lines, "[6/9]"), indexOf(lines, "[7/9]"));
    for (String target : List.of("a", "b")) {
      for (String table : List.of("customers", "orders", "all_types")) {
        assertThat(first).anyMatch(row(target, table, "IN_SYNC", 0, 0, 0));
      }
    }
    // And the repair of b re-sent its rows through the stream and fixed exactly the three keys
    List<String> repair = lines.subList(indexOf(lines, "[9/9]"), lines.size());
    assertThat(repair)
        .anyMatch(
            l -> l.contains("b shop.customers: 2 repaired [1000000001, 42], 0 still different"))
        .anyMatch(l -> l.contains("b shop.orders: 1 repaired [14,2], 0 still different"));
    assertThat(out).contains("Done in ").contains("the repair fixed exactly those");
    assertNothingLeft(lines);
  }

  @Test
  void sigtermDuringTheCompareStopsEverything(@TempDir Path dir) throws Exception {
    // Given the demo, running its first compare
    Process process = start(dir, "--rows", "20000");
    List<String> lines = readUntil(process, line -> line.startsWith("[6/9]"));
    List<ProcessHandle> children = process.descendants().filter(ProcessHandle::isAlive).toList();

    // When SIGTERM (Process.destroy() sends SIGTERM on Linux, and closes our end of its output)
    long t0 = System.nanoTime();
    process.destroy();

    // Then it ends within the stated bound, with the JVM's exit code for SIGTERM, and nothing is
    // left
    assertThat(process.waitFor(60, TimeUnit.SECONDS))
        .as("exited after SIGTERM; %s", lines)
        .isTrue();
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    LOG.info("command=demo stop_ms={}", took.toMillis());
    assertThat(process.exitValue()).isEqualTo(143);
    assertThat(took).isLessThan(STOP_BOUND);
    assertThat(children.size()).as("servers started").isGreaterThanOrEqualTo(5);
    assertThat(children).noneMatch(ProcessHandle::isAlive);
    assertNothingLeft(lines);
  }

  private static Process start(Path dir, String... args) throws IOException {
    Path jar = Path.of("target", "cdc-compare.jar").toAbsolutePath();
    assertThat(jar).exists();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx384m");
    command.add("-jar");
    command.add(jar.toString());
    command.add("demo");
    command.add("--log-file");
    command.add(dir.resolve("demo.log").toString());
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.PIPE)
        .start();
  }

  /** Lines of the demo's output up to the first that {@code last} accepts, or to its end. */
  private static List<String> readUntil(Process process, Predicate<String> last)
      throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      lines.add(line);
      if (last.test(line)) {
        break;
      }
    }
    return lines;
  }

  /** A report row of a table: its status, full coverage and failed, missed and extra counts. */
  private static Predicate<String> row(
      String target, String table, String status, int failed, int missed, int extra) {
    Pattern p =
        Pattern.compile(
            target
                + " +shop\\."
                + table
                + " +\\S+ +"
                + status
                + " +\\d+ +\\d+ +\\d+ +100% +\\d+ +"
                + failed
                + " +"
                + missed
                + " +"
                + extra
                + " .*");
    return line -> p.matcher(line).matches();
  }

  /** The key listed under a heading such as {@code failed keys (1):}. */
  private static String keysUnder(List<String> lines, String heading) {
    for (int i = 0; i + 1 < lines.size(); i++) {
      if (lines.get(i).strip().equals(heading)) {
        return lines.get(i + 1).strip();
      }
    }
    throw new AssertionError("no line '" + heading + "' in " + lines);
  }

  private static int indexOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    throw new AssertionError("no line starts with " + prefix + " in " + lines);
  }

  /** The environment's directory is gone and no process mentions it. */
  private static void assertNothingLeft(List<String> lines) {
    Path root = null;
    for (String line : lines) {
      Matcher m = ENV_ROOT.matcher(line);
      if (m.find()) {
        root = Path.of(m.group(1));
      }
    }
    assertThat(root).as("environment directory named in %s", lines).isNotNull();
    String rootText = root.toString();
    List<String> mentioning = new ArrayList<>();
    ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .forEach(
            p ->
                p.info()
                    .commandLine()
                    .filter(c -> c.contains(rootText))
                    .ifPresent(mentioning::add));
    assertThat(mentioning).isEmpty();
    assertThat(Files.exists(root)).isFalse();
  }
}
