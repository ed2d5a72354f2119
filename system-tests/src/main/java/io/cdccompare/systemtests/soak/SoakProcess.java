package io.cdccompare.systemtests.soak;

import io.cdccompare.embedded.ParentWatchdog;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The parent's handle on a {@link SoakChild} JVM (256 MiB of heap, through {@link ParentWatchdog}
 * so it halts if the soak dies): its standard error goes to a log file, the lines it prints are
 * kept.
 */
final class SoakProcess {
  private final String name;
  private final Process process;
  private final Path log;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private volatile boolean killed;

  private SoakProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    Thread reader = new Thread(this::read, "soak-child-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  static SoakProcess start(String name, Path log, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    String logback = System.getProperty("logback.configurationFile");
    if (logback != null) {
      command.add("-Dlogback.configurationFile=" + logback);
    }
    command.add("-cp");
    command.add(
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(e -> !e.isEmpty())
            .map(e -> Path.of(e).toAbsolutePath().toString())
            .collect(Collectors.joining(File.pathSeparator)));
    command.add(ParentWatchdog.class.getName());
    command.add(Long.toString(ProcessHandle.current().pid()));
    command.add(SoakChild.class.getName());
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new SoakProcess(name, p, log);
  }

  private void read() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  String name() {
    return name;
  }

  List<String> lines() {
    return lines;
  }

  boolean printed(String line) {
    return lines.contains(line);
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  boolean wasKilled() {
    return killed;
  }

  Path log() {
    return log;
  }

  /** The exit code, waiting for the end up to {@code seconds}; -1 if still running. */
  int awaitExit(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  /** {@code kill -9}, as a crash; waits until the JVM is gone. */
  void kill() throws InterruptedException {
    killed = true;
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM, then SIGKILL after a grace period. */
  void stop(long graceSeconds) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
      kill();
    }
  }
}
