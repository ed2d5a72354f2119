package io.cdccompare.app;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.stream.ExitCode;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The one {@code cdc-compare} command. It only parses arguments, wires objects and runs them; every
 * capability lives in a library module.
 *
 * <p>Exit codes ({@link ExitCode}): 0 ok (in sync), 1 failure, 2 usage error or bad configuration
 * (a missing file, an unknown or invalid key: the message names it); {@code report} and {@code
 * compare run --wait} add 3 differences found, 4 unverifiable chunks or resync needed, 5 not every
 * chunk verified yet.
 */
@Command(
    name = "cdc-compare",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Proves, while CDC replication keeps running, that every target holds the same"
            + " rows as the source.",
    subcommands = {
      DemoCommand.class,
      EnvCommand.class,
      CaptureCommand.class,
      CompareCommand.class,
      VerifyCommand.class,
      AlertsCommand.class,
      ReportCommand.class,
      StatusCommand.class,
      CommandLine.HelpCommand.class
    })
public final class CdcCompare implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line and returns its exit code (for tests and {@link #main}). */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new CdcCompare());
    cli.setExecutionExceptionHandler(CdcCompare::reportFailure);
    return cli;
  }

  /** A failure is one clear line on standard error; the stack trace is logged. */
  private static int reportFailure(
      Exception e, CommandLine cli, CommandLine.ParseResult parseResult) {
    PrintWriter err = cli.getErr();
    err.println("cdc-compare: " + oneLine(e));
    err.flush();
    org.slf4j.LoggerFactory.getLogger(CdcCompare.class).debug("command failed", e);
    return exitCode(e);
  }

  /**
   * The exit code of a command that failed with {@code e}: bad configuration 2; a resync needed
   * (RESYNC_NEEDED: an incremental run whose changes are gone) or a source table that changed
   * during the run (SCHEMA_DRIFT: {@code compare run} stopped naming the table and column) 4, as
   * the README's exit-code table says; anything else 1.
   */
  static int exitCode(Exception e) {
    if (e instanceof org.apache.kafka.common.config.ConfigException) {
      return ExitCode.USAGE.code();
    }
    if (e instanceof CdcCompareException c
        && (c.code() == ErrorCode.RESYNC_NEEDED || c.code() == ErrorCode.SCHEMA_DRIFT)) {
      return ExitCode.UNVERIFIABLE.code();
    }
    return ExitCode.FAILURE.code();
  }

  static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
