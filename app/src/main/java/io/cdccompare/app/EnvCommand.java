package io.cdccompare.app;

import picocli.CommandLine.Command;

/** {@code cdc-compare env …}: the embedded environment of real servers. */
@Command(
    name = "env",
    mixinStandardHelpOptions = true,
    description =
        "The embedded environment: real Kafka, schema registry, PostgreSQL and MariaDB"
            + " servers started locally, without Docker.",
    subcommands = {EnvUpCommand.class})
final class EnvCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required");
  }
}
