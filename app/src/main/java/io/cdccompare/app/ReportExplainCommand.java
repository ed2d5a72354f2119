package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.explain.ExplainText;
import io.cdccompare.operations.explain.Explainer;
import io.cdccompare.operations.explain.RowExplanation;
import io.cdccompare.report.aggregate.ReportReader;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare report explain -c FILE --target NAME --table T --key K [--run RUN]}: one key's
 * row read now on the source and on the target, column by column ({@link Explainer}). Exit 0 when
 * both sides hold the same row now, 3 when they differ (or one side lacks it), 2 for an unknown
 * target, table or run or a key that does not parse, 1 when a database or Kafka cannot be read.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description =
        "Explain one difference: read the key's row now on the source and on the target and show"
            + " each compared column's canonical text on both sides, the differing ones marked,"
            + " and whether the source row changed since the run. Exit 0 same now, 3 differs.")
final class ReportExplainCommand implements Callable<Integer> {
  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = "--target",
      paramLabel = "NAME",
      description = "The target (required when the file defines several).")
  String target;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "T",
      description = "The source table, schema-qualified (e.g. public.orders).")
  String table;

  @Option(
      names = "--key",
      required = true,
      paramLabel = "K",
      description = "The key as report --keys lists it (a composite key's values joined as there).")
  String key;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = "The run whose verdict is explained (default: the table's latest run).")
  String run;

  @Mixin ReadTimeoutOption readTimeout;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws SQLException {
    Duration timeout = readTimeout.checked(spec);
    TargetsConfig targets = targetsFile.load();
    ReportReader reader = targets.reportReader(timeout);
    RowExplanation explanation;
    try (Explainer explainer = new Explainer(targets, reader, timeout)) {
      explanation =
          explainer.explain(new Explainer.Request(target, table, key, Optional.ofNullable(run)));
    }
    var out = spec.commandLine().getOut();
    ExplainText.write(explanation, "", out);
    out.flush();
    boolean same =
        explanation.onSource() == explanation.onTarget()
            && explanation.differingColumns().isEmpty();
    return same ? ExitCode.OK.code() : ExitCode.DIFFERENCES.code();
  }
}
