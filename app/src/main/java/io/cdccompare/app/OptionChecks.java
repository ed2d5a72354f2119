package io.cdccompare.app;

import io.cdccompare.producer.compare.CompareConfig;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;

/** The checks the commands make of their options and task file before anything runs (exit 2). */
final class OptionChecks {
  private OptionChecks() {}

  /** Refuses a duration option below one second (exit 2). */
  static void requireSeconds(CommandLine.Model.CommandSpec spec, String option, long seconds) {
    if (seconds < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), option + " must be at least 1 second, was " + seconds);
    }
  }

  /** Refuses a task file without {@code targets} for {@code what} needs them (exit 2). */
  static void requireTargets(Path config, CompareConfig task, String what) {
    if (task.targets().isEmpty()) {
      throw new ConfigException(
          config
              + ": "
              + what
              + " needs the key "
              + CompareConfig.TARGETS
              + " (the targets that verify this task, as named in the targets file)");
    }
  }
}
