package io.cdccompare.childverifier;

import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.run.RunningVerifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One target's verifier in a JVM of its own, wired as {@code cdc-compare verify -c FILE --target
 * NAME} wires it ({@link TargetsConfig#load}, {@link RunningVerifier#start}), so its CPU time and
 * heap are its own. Started by {@link ChildVerifier} through {@code ParentWatchdog}.
 *
 * <p>Talks to the parent in lines: it prints {@code RUNNING} once the verifier's applications run,
 * and answers {@code reset} (start a new heap window), {@code heap} (print {@code HEAP ...}, see
 * {@link HeapWatch}) and {@code threads} (print {@code THREAD <nanos> <group>} per thread group,
 * see {@link ThreadCpu}, then {@code THREADS END}) read from standard input. SIGTERM closes the
 * verifier (its shutdown hook); a verifier that stops by itself prints {@code FAILED <reason>} and
 * exits 1.
 *
 * <p>Arguments: {@code <targets-file> <target-name>}.
 */
public final class VerifierChild {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private VerifierChild() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: VerifierChild <targets-file> <target-name>");
    }
    HeapWatch heap = HeapWatch.start();
    Thread commands = new Thread(() -> answer(heap), "parent-commands");
    commands.setDaemon(true);
    commands.start();

    TargetsConfig targets = TargetsConfig.load(Path.of(args[0]));
    RunningVerifier verifier = RunningVerifier.start(targets, targets.targetName(args[1]));
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> verifier.close(STOP_TIMEOUT), "verifier-stop"));
    try {
      verifier.awaitRunning(START_TIMEOUT);
    } catch (IllegalStateException e) {
      say("FAILED " + oneLine(e));
      System.exit(1);
    }
    say("RUNNING");
    verifier.awaitStop(Duration.ofDays(365));
    try {
      verifier.requireHealthy();
    } catch (IllegalStateException e) {
      say("FAILED " + oneLine(e));
      System.exit(1);
    }
  }

  private static void answer(HeapWatch heap) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        switch (line.trim()) {
          case "reset" -> heap.reset();
          case "heap" -> say(heap.heap().line());
          case "threads" -> sayThreads();
          default -> System.err.println("unknown command from the parent: " + line);
        }
      }
    } catch (IOException e) {
      // the parent is gone; ParentWatchdog ends this JVM
    }
  }

  private static synchronized void sayThreads() {
    ThreadCpu.snapshot()
        .forEach((group, nanos) -> System.out.println("THREAD " + nanos + " " + group));
    say("THREADS END");
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static String oneLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
