package io.cdccompare.childverifier;

import io.cdccompare.embedded.ParentWatchdog;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The parent's handle on a {@link VerifierChild}: a JVM started with {@value #HEAP} of heap through
 * {@link ParentWatchdog} (it halts if this JVM dies, even after {@code kill -9}), its standard
 * error in a log file, its standard output read for the lines of its protocol. {@link #close()}
 * sends SIGTERM, waits for the verifier to close, then kills it.
 */
public final class ChildVerifier implements AutoCloseable {
  static final String HEAP = "256m";

  /** System property: more options of the verifier JVMs, separated by spaces. */
  static final String JVM_OPTIONS = "bench.verifier.jvm";

  private static final Duration CLOSE_GRACE = Duration.ofSeconds(25);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

  private final String target;
  private final Process process;
  private final Path log;
  private final Writer commands;
  private final CountDownLatch running = new CountDownLatch(1);
  private final BlockingQueue<HeapWatch.Heap> heaps = new LinkedBlockingQueue<>();
  private final BlockingQueue<Map<String, Long>> threads = new LinkedBlockingQueue<>();
  private Map<String, Long> threadLines = new TreeMap<>();
  private volatile String failure;

  private ChildVerifier(String target, Process process, Path log) {
    this.target = target;
    this.process = process;
    this.log = log;
    this.commands = process.outputWriter(StandardCharsets.UTF_8);
    Thread reader = new Thread(this::read, "child-verifier-" + target);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts the verifier of one target of the targets file; its log goes to {@code log}. */
  public static ChildVerifier start(Path targetsFile, String target, Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + HEAP);
    command.add("-XX:+UseG1GC");
    command.add("-XX:+ExitOnOutOfMemoryError");
    String extra = System.getProperty(JVM_OPTIONS, "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+"))); // e.g. a flight recording of the verifier
    }
    String logback = System.getProperty("logback.configurationFile");
    if (logback != null) {
      command.add(
          "-Dlogback.configurationFile="
              + logback); // the calling module's (bench, system-tests), not the app's
    }
    command.add("-cp");
    command.add(absoluteClassPath());
    command.add(ParentWatchdog.class.getName());
    command.add(Long.toString(ProcessHandle.current().pid()));
    command.add(VerifierChild.class.getName());
    command.add(targetsFile.toString());
    command.add(target);
    Files.createDirectories(log.getParent());
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
    return new ChildVerifier(target, process, log);
  }

  private void read() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        if (line.equals("RUNNING")) {
          running.countDown();
        } else if (line.startsWith("HEAP ")) {
          heaps.add(HeapWatch.Heap.parse(line));
        } else if (line.startsWith("THREAD ")) {
          String[] parts = line.split(" ", 3);
          threadLines.put(parts[2], Long.parseLong(parts[1]));
        } else if (line.equals("THREADS END")) {
          threads.add(threadLines);
          threadLines = new TreeMap<>();
        } else if (line.startsWith("FAILED ")) {
          failure = line.substring("FAILED ".length());
        } else {
          System.err.println("[verifier " + target + "] " + line);
        }
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  public String target() {
    return target;
  }

  public long pid() {
    return process.pid();
  }

  /** Waits until the verifier's applications run; throws naming why it did not. */
  public void awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!running.await(200, TimeUnit.MILLISECONDS)) {
      requireAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "verifier " + target + " did not run within " + timeout + "; see " + log);
      }
    }
  }

  /** Throws when the child stopped, naming its reason and its log. */
  public void requireAlive() {
    if (failure != null || !process.isAlive()) {
      throw new IllegalStateException(
          "verifier "
              + target
              + " stopped"
              + (failure != null ? ": " + failure : " (exit " + exitValue() + ")")
              + "; see "
              + log);
    }
  }

  private String exitValue() {
    try {
      return Integer.toString(process.exitValue());
    } catch (IllegalThreadStateException e) {
      return "?";
    }
  }

  /**
   * Kills the verifier's JVM at once ({@code kill -9}), as a crash would; waits until it is gone.
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** The file its standard error goes to. */
  public Path log() {
    return log;
  }

  /** Whether the verifier's JVM still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Starts a new heap window in the child. */
  public void resetHeap() throws IOException {
    send("reset");
  }

  /** The child's heap window so far. */
  public HeapWatch.Heap heap() throws IOException, InterruptedException {
    heaps.clear();
    send("heap");
    HeapWatch.Heap heap = heaps.poll(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    if (heap == null) {
      throw new IllegalStateException("verifier " + target + " did not report its heap");
    }
    return heap;
  }

  /** CPU nanoseconds of the child's live threads so far, by group ({@link ThreadCpu}). */
  public Map<String, Long> threadCpu() throws IOException, InterruptedException {
    threads.clear();
    send("threads");
    Map<String, Long> snapshot = threads.poll(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    if (snapshot == null) {
      throw new IllegalStateException("verifier " + target + " did not report its threads");
    }
    return snapshot;
  }

  private synchronized void send(String command) throws IOException {
    commands.write(command + "\n");
    commands.flush();
  }

  /** SIGTERM (the verifier closes its applications), then SIGKILL after a grace period. */
  @Override
  public void close() throws InterruptedException {
    close(CLOSE_GRACE);
  }

  /** As {@link #close()}, with this grace period. */
  public void close(Duration grace) throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private static String absoluteClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isEmpty())
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }
}
