package io.cdccompare.app;

import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The {@code --timeout SECONDS} option of the commands that read both topics and databases ({@code
 * report explain}, {@code report serve}): a picocli mixin.
 */
final class ReadTimeoutOption {
  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description =
          "Longest one read of a topic or a database may take (default ${DEFAULT-VALUE}).")
  long seconds;

  /** The timeout, refused (usage error naming the option) unless at least one second. */
  Duration checked(CommandSpec spec) {
    OptionChecks.requireSeconds(spec, "--timeout", seconds);
    return Duration.ofSeconds(seconds);
  }
}
