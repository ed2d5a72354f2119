package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.status.StatusCollector;
import io.cdccompare.operations.status.StatusJson;
import io.cdccompare.operations.status.StatusPrinter;
import io.cdccompare.operations.status.StatusReport;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare status -c FILE [-o table|json]}: the operator's one screen: the capture's
 * slot, each target's lag per table-topic partition, the compares. Wiring only: the reads and the
 * printing live in {@code io.cdccompare.operations.status}.
 *
 * <p>Exit codes: 0 every part could be read, 1 some part was unreachable (each one named in its
 * line, everything else printed), 2 bad configuration, 4 every part read and a position cannot be
 * continued (a slot that lost WAL, a RESYNC_NEEDED partition).
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Show the capture's replication slot, each target's lag per table-topic partition (records"
            + " and seconds) and the compares of the report, on one screen. Exit 0 when every"
            + " part could be read, 1 when some part was unreachable, 4 when a resync is needed.")
final class StatusCommand implements Callable<Integer> {
  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      paramLabel = "FORMAT",
      description = "table (default) or json.")
  OutputFormat output;

  @Option(
      names = "--timeout",
      defaultValue = "15",
      paramLabel = "SECONDS",
      description = "Longest any one read of a database or of Kafka may take (default 15).")
  int timeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (timeoutSeconds <= 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--timeout must be positive, was " + timeoutSeconds);
    }
    TargetsConfig targets = targetsFile.load();
    StatusReport report =
        new StatusCollector(targets, Duration.ofSeconds(timeoutSeconds), Clock.systemUTC())
            .collect();
    var out = spec.commandLine().getOut();
    if (output == OutputFormat.json) {
      StatusJson.print(report, out);
    } else {
      StatusPrinter.print(report, out);
    }
    if (!report.complete()) {
      return ExitCode.FAILURE.code();
    }
    return report.resyncNeeded() ? ExitCode.UNVERIFIABLE.code() : ExitCode.OK.code();
  }
}
