package io.cdccompare.app;

import io.cdccompare.operations.compare.RunReport;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.explain.ExplainText;
import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.operations.page.ReportPage;
import io.cdccompare.operations.page.ReportView;
import io.cdccompare.report.aggregate.ReportReader;
import io.cdccompare.report.read.ReportJson;
import io.cdccompare.report.read.ReportTable;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare report -c FILE [--task NAME] [-o table|json|html] [--keys] [--explain N]}:
 * shows the report as it stands — per task and target the totals and the tables, chunks noted vs
 * verified, row outcomes; with {@code --keys} the difference keys and the recheck attempts of each
 * table's run, with {@code --explain N} the first keys explained column by column; {@code -o html}
 * writes it as one self-contained page ({@link ReportPage}) — and exits with its outcome ({@link
 * ReportOutcome}): 0 in sync, 3 differences, 4 unverifiable or resync needed, 5 not every noted
 * chunk verified yet (or nothing reported, or a table of which no row was compared); 1 when Kafka
 * cannot be read, 2 for a bad file.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    subcommands = {ReportExplainCommand.class, ReportServeCommand.class},
    description =
        "Show the report: per task and target, chunks noted vs verified and matched / failed /"
            + " missed / extra rows; exit 0 in sync, 3 differences, 4 unverifiable or resync"
            + " needed, 5 not every noted chunk verified yet or a table compared nothing.")
final class ReportCommand implements Callable<Integer> {
  // not the TargetsFileOption mixin: a required option here would be required before the
  // subcommands (report explain -c …) too
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "Targets file (required).")
  Path config;

  @Option(
      names = "--task",
      paramLabel = "NAME",
      description = "Show this task only (default: every task in the report).")
  String task;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description =
          "table (aligned text, the default), json (docs/report-json.md) or html (one"
              + " self-contained page: status grid, run history, chunk strips, keys, lag).")
  ReportFormat output;

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
      names = "--explain",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Explain the first N difference keys of each table and target (implies --keys): the row"
              + " read now on the source and the target, column by column.")
  int explain;

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
    if (explain < 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--explain must be 0 or more, was " + explain);
    }
    if (config == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Missing required option: '--config=FILE'");
    }
    TargetsConfig targets = TargetsConfig.load(config);
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    ReportReader reader = targets.reportReader(timeout);
    boolean html = output == ReportFormat.html;
    ReportView view;
    try {
      view =
          ReportView.read(
              targets,
              reader,
              new ReportView.Options(
                  Optional.ofNullable(task), keys || html, maxKeys, explain, html),
              timeout);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    var out = spec.commandLine().getOut();
    switch (output) {
      case json ->
          ReportJson.write(view.tasks(), view.outcome(), targets.reportConfig().reportTopic(), out);
      case html ->
          ReportPage.write(
              view.page(targets.topicPrefix(), Optional.of(ReportView.status(targets, timeout)), 0),
              out);
      case table -> {
        ReportTable.write(view.tasks(), out);
        for (RowExplanation e : view.explanations()) {
          out.println();
          ExplainText.write(e, "", out);
        }
      }
    }
    out.flush();
    RunReport.printReason(spec.commandLine().getErr(), view.outcome());
    return view.outcome().exitCode();
  }
}
