package io.cdccompare.app;

import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.report.RecheckAttempts;
import io.cdccompare.operations.report.ReportJson;
import io.cdccompare.operations.report.ReportOutcome;
import io.cdccompare.operations.report.ReportTable;
import io.cdccompare.operations.report.ResultKeys;
import io.cdccompare.operations.report.TaskReport;
import io.cdccompare.operations.report.TaskReports;
import io.cdccompare.schemas.avro.ChunkResult;
import io.cdccompare.topology.report.ReportReader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare report -c FILE [--task NAME] [-o table|json] [--keys]}: shows the report as it
 * stands — per task and target the totals and the tables, chunks noted vs verified, row outcomes;
 * with {@code --keys} the difference keys and the recheck attempts of each table's run — and exits
 * with its outcome ({@link ReportOutcome}): 0 in sync, 3 differences, 4 unverifiable or resync
 * needed, 5 not every noted chunk verified yet (or nothing reported, or a table of which no row was
 * compared); 1 when Kafka cannot be read, 2 for a bad file.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description =
        "Show the report: per task and target, chunks noted vs verified and matched / failed /"
            + " missed / extra rows; exit 0 in sync, 3 differences, 4 unverifiable or resync"
            + " needed, 5 not every noted chunk verified yet or a table compared nothing.")
final class ReportCommand implements Callable<Integer> {
  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = "--task",
      paramLabel = "NAME",
      description = "Show this task only (default: every task in the report).")
  String task;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "table (aligned text, the default) or json (docs/report-json.md).")
  OutputFormat output;

  @Option(
      names = "--keys",
      description =
          "List the failed, missed and extra keys of every table with differences, and the"
              + " recheck attempts of each table's run.")
  boolean keys;

  @Option(
      names = "--max-keys",
      paramLabel = "N",
      defaultValue = "100",
      description =
          "Keys listed per kind and table (and recheck attempt) at most (default"
              + " ${DEFAULT-VALUE}; 0: all).")
  int maxKeys;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "Longest one read of a topic may take (default ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (maxKeys < 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--max-keys must be 0 or more, was " + maxKeys);
    }
    OptionChecks.requireSeconds(spec, "--timeout", timeoutSeconds);
    TargetsConfig targets = targetsFile.load();
    ReportReader reader =
        new ReportReader(
            targets.reportConfig(),
            targets.bootstrapServers(),
            targets.withPrefix("consumer."),
            Duration.ofSeconds(timeoutSeconds));
    List<TaskReport> shown =
        TaskReports.of(reader.entries(), Optional.ofNullable(task), targets.targetNames());
    if (keys) {
      Predicate<ChunkResult> differences = ResultKeys.ofRowsWithDifferences(shown);
      Predicate<ChunkResult> rechecks = RecheckAttempts.ofRows(shown);
      List<ChunkResult> results = reader.results(differences.or(rechecks));
      shown =
          TaskReports.withKeys(
              shown, ResultKeys.of(results.stream().filter(differences).toList(), maxKeys));
      shown =
          TaskReports.withRechecks(
              shown, RecheckAttempts.of(results.stream().filter(rechecks).toList(), maxKeys));
    }
    ReportOutcome outcome = ReportOutcome.of(shown);
    var out = spec.commandLine().getOut();
    if (output == OutputFormat.json) {
      ReportJson.write(shown, outcome, targets.reportConfig().reportTopic(), out);
    } else {
      ReportTable.write(shown, out);
    }
    RunReport.printReason(spec.commandLine().getErr(), outcome);
    return outcome.exitCode();
  }
}
