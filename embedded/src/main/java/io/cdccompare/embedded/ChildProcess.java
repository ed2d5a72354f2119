package io.cdccompare.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A process started by the environment, its output appended to a log file. Stopping sends a signal,
 * waits, then kills the process and every descendant it left behind.
 */
final class ChildProcess {
  private final String name;
  private final Process process;
  private final Path log;

  private ChildProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static ChildProcess start(
      String name, List<String> command, Path workDir, Map<String, String> env, Path log) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    try {
      return new ChildProcess(name, builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command.get(0), e);
    }
  }

  /** Runs a command to its end and returns its exit code; output goes to the log. */
  static int run(
      String name,
      List<String> command,
      Path workDir,
      Map<String, String> env,
      Path log,
      Duration timeout) {
    ChildProcess child = start(name, command, workDir, env, log);
    try {
      if (!child.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        child.kill();
        throw new IllegalStateException(name + " did not finish within " + timeout);
      }
      return child.process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      child.kill();
      throw new IllegalStateException(name + " interrupted", e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  String name() {
    return name;
  }

  /** The process and its live descendants. */
  List<ProcessHandle> handles() {
    List<ProcessHandle> handles = new ArrayList<>();
    if (process.isAlive()) {
      handles.add(process.toHandle());
    }
    process.descendants().filter(ProcessHandle::isAlive).forEach(handles::add);
    return handles;
  }

  /**
   * Asks the process to stop with the given signal ({@code TERM}, {@code INT}), waits up to the
   * grace period, then kills it and its descendants.
   */
  void stop(String signal, Duration grace) {
    List<ProcessHandle> descendants = process.descendants().toList();
    if (process.isAlive()) {
      signal(process.pid(), signal);
      try {
        process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    kill();
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    waitGone(Stream.concat(Stream.of(process.toHandle()), descendants.stream()).toList());
  }

  /** Kills the process and its descendants at once (SIGKILL). */
  void kill() {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
    waitGone(Stream.concat(Stream.of(process.toHandle()), descendants.stream()).toList());
  }

  private static void waitGone(List<ProcessHandle> handles) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (ProcessHandle h : handles) {
      try {
        h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        // reported by the caller's orphan checks; nothing else can be done here
      }
    }
  }

  static void signal(long pid, String signal) {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File("/dev/null");
  }
}
