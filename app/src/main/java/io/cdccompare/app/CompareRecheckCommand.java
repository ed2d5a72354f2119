package io.cdccompare.app;

import io.cdccompare.core.recheck.RecheckPlan;
import io.cdccompare.operations.compare.TaskReportReader;
import io.cdccompare.operations.recheck.Rechecks;
import io.cdccompare.producer.compare.CompareConfig;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare recheck -c FILE [--run RUN] [--what in-flight|differences|all] [--wait
 * [--wait-timeout SECONDS]]}: compares again, as key-list chunks, the keys a finished run left in
 * flight (and on request its differences), each at the targets whose verdicts listed it
 * (docs/design.md, "Recheck"). The keys come from the results topic; the run is {@code --run} or,
 * per table, the run the report shows. With {@code --wait} it waits for every target's verdicts on
 * every chunk of the recheck and prints, per target and table, each key confirmed, cleared,
 * unsettled or unverified (operations' {@link Rechecks}).
 *
 * <p>Exit codes: 0 noted (with {@code --wait}: every key cleared), 1 failure, 2 bad configuration
 * or a run without verdicts, 130 stopped; with {@code --wait} also 3 a key is different again, 4 a
 * key could not be verified, 5 a key is unsettled or the wait timed out.
 */
@Command(
    name = "recheck",
    mixinStandardHelpOptions = true,
    description =
        "Compare again the keys a finished run left in flight (or its differences), at the"
            + " targets that listed them, through the stream.")
final class CompareRecheckCommand implements Callable<Integer> {
  @Mixin TaskFileOption taskFile;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = "The run whose keys are rechecked (default: per table, the run of the report).")
  String run;

  @Option(
      names = "--what",
      paramLabel = "KEYS",
      defaultValue = "in-flight",
      description =
          "in-flight (default), differences (failed, missed and extra keys) or all (both).")
  String what;

  @Option(
      names = "--wait",
      description =
          "Wait for every target's verdicts, print each key's outcome and exit with its code"
              + " (0 cleared, 3 different again, 4 unverified, 5 unsettled or timeout).")
  boolean waitForOutcome;

  @Option(
      names = "--wait-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description = "Longest --wait waits for the targets (default ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    OptionChecks.requireSeconds(spec, "--wait-timeout", waitTimeoutSeconds);
    RecheckPlan.What keys;
    try {
      keys = RecheckPlan.What.parse(what);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    CompareConfig task = taskFile.load();
    OptionChecks.requireTargets(taskFile.file, task, "compare recheck");
    CommandLine cli = spec.commandLine();
    Rechecks rechecks = new Rechecks(task, TaskReportReader.of(task), cli.getOut(), cli.getErr());
    Rechecks.Runs rechecked = rechecks.runs(run);
    try (StopHook hook = StopHook.install("cdc-compare-recheck-stop", rechecks::stop)) {
      return rechecks.recheckRuns(
          rechecked, keys, waitForOutcome, Duration.ofSeconds(waitTimeoutSeconds));
    }
  }
}
