package io.cdccompare.testsupport;

import io.cdccompare.embedded.JavaCommand;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The crash tests' launcher: one of the programs (capture, compare, verifier) in a child JVM on the
 * test's class path, so that a test can kill it like a crash, or let a failpoint halt it. The child
 * halts by itself when the test JVM disappears, its output goes to a log file of its own and its
 * input is empty.
 */
public final class ChildJvm {
  private static final String DEFAULT_HEAP = "256m";

  private final Class<?> mainClass;
  private final List<String> jvmOptions = new ArrayList<>();
  private String heap = DEFAULT_HEAP;

  private ChildJvm(Class<?> mainClass) {
    this.mainClass = mainClass;
  }

  /** A child JVM that will run {@code mainClass}. */
  public static ChildJvm of(Class<?> mainClass) {
    return new ChildJvm(mainClass);
  }

  /** The child's maximum heap ({@code -Xmx}), e.g. {@code 128m}; 256m unless set. */
  public ChildJvm heap(String heap) {
    this.heap = heap;
    return this;
  }

  /** Logs through this logback configuration of the class path (e.g. a quieter one). */
  public ChildJvm logback(String configurationFile) {
    jvmOptions.add("-Dlogback.configurationFile=" + configurationFile);
    return this;
  }

  /** Arms a failpoint ({@code name@n}, see {@code Failpoint}); null arms none. */
  public ChildJvm failpoint(String failpoint) {
    if (failpoint != null) {
      jvmOptions.add("-Dcdc.failpoint=" + failpoint);
    }
    return this;
  }

  /** Starts the program with these arguments, its output written to {@code log}. */
  public Process start(Path log, String... args) throws IOException {
    List<String> command =
        JavaCommand.onOwnClassPath(heap, jvmOptions, mainClass.getName(), List.of(args));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(new File("/dev/null"))
        .start();
  }
}
