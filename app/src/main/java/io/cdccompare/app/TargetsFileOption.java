package io.cdccompare.app;

import io.cdccompare.operations.config.TargetsConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code -c FILE} option of the commands that read the targets file (a picocli mixin). */
final class TargetsFileOption {
  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description =
          "Targets file (Java properties, Kafka-style keys; source.* for the capture, used by"
              + " status).")
  Path file;

  /** The targets file, read and checked. */
  TargetsConfig load() {
    return TargetsConfig.load(file);
  }
}
