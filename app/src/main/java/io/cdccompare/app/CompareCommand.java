package io.cdccompare.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cdc-compare compare …}: compare tasks. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = "Compare tasks: read the source in key-ordered chunks and note them.",
    subcommands = {
      CompareRunCommand.class,
      CompareRecheckCommand.class,
      CompareRepairCommand.class
    })
final class CompareCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }
}
