package io.cdccompare.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the command line of a child JVM running on this JVM's own class path: the environment's
 * servers and the crash tests' programs (test-support's {@code ChildJvm}) start that way.
 */
public final class JavaCommand {
  private JavaCommand() {}

  static Path javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** This JVM's class path with every entry made absolute (children run in other directories). */
  static String absoluteClassPath() {
    return java.util.Arrays.stream(
            System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !entry.isEmpty())
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  /**
   * A child JVM that runs {@code mainClass} on this JVM's class path and halts by itself when this
   * JVM disappears (so a killed parent leaves no orphan broker).
   */
  public static List<String> onOwnClassPath(
      String heap, List<String> jvmOptions, String mainClass, List<String> args) {
    return onClassPath(heap, jvmOptions, absoluteClassPath(), mainClass, args);
  }

  /**
   * A child JVM that runs {@code mainClass} on {@code classPath}, which must hold {@link
   * ParentWatchdog}, and halts by itself when this JVM disappears.
   */
  static List<String> onClassPath(
      String heap, List<String> jvmOptions, String classPath, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary().toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(ParentWatchdog.class.getName());
    command.add(Long.toString(ProcessHandle.current().pid()));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }
}
