package io.cdccompare.app;

import io.cdccompare.producer.compare.CompareConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code -c FILE} option of {@code compare recheck} and {@code compare repair}: the task file
 * of {@code compare run}, which must name its targets (a picocli mixin).
 */
final class TaskFileOption {
  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "Task file (the one of compare run); its 'targets' key is required.")
  Path file;

  CompareConfig load() {
    return CompareConfig.load(file);
  }
}
