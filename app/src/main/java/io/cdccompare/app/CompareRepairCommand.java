package io.cdccompare.app;

import io.cdccompare.operations.repair.Repair;
import io.cdccompare.producer.compare.CompareConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare repair -c FILE --target NAME [--run RUN] [--table T]… [--delete-extra]
 * [--dry-run] [--wait [--wait-timeout SECONDS]]}: repairs one target's differences in one run
 * (docs/design.md, "Repair"). The failed and missed keys are re-sent from the source through the
 * capture, so every target applies them in commit order; then exactly the repaired keys are
 * compared again on that target (operations' {@link Repair}, run id {@code <run>.repair<n>}). With
 * {@code --delete-extra} the extra keys are deleted on that target where the source still lacks
 * them at the check's position. {@code --dry-run} prints per key what would be done and changes
 * nothing.
 *
 * <p>Exit codes: 0 noted (with {@code --wait}: every key repaired), 1 failure (also: the target's
 * verifier is not running, or another process runs the task), 2 bad input (unknown target, table or
 * run, nothing to repair), 130 stopped; with {@code --wait} also 3 a key is still different, 4 a
 * key could not be verified, 5 a key stayed in flight through the rechecks, or the wait timed out.
 */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description =
        "Re-send one target's failed and missed rows of a run through the stream, then compare"
            + " exactly those keys again on that target.")
final class CompareRepairCommand implements Callable<Integer> {
  @Mixin TaskFileOption taskFile;

  @Option(
      names = "--target",
      required = true,
      paramLabel = "NAME",
      description = "The target to repair, one of the task's 'targets'.")
  String target;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = "The run whose differences are repaired (default: per table, the report's).")
  String run;

  @Option(
      names = "--table",
      paramLabel = "TABLE",
      description = "Repair only this table (schema.table, repeatable; default: every table).")
  List<String> tables = new ArrayList<>();

  @Option(
      names = "--delete-extra",
      description =
          "Also delete the target's extra rows whose key the source still lacks when the repair"
              + " compares them (default: extra rows are left).")
  boolean deleteExtra;

  @Option(
      names = "--dry-run",
      description = "Print what would be re-sent, deleted or left, per key; change nothing.")
  boolean dryRun;

  @Option(
      names = "--verifier-group",
      paramLabel = "GROUP",
      description =
          "The consumer group (application.id) of the target's verifier, checked to be running"
              + " (default: cdc-compare-verify-<target>).")
  String verifierGroup;

  @Option(
      names = "--wait",
      description =
          "Wait for the target's verdicts, print each key's outcome and exit with its code"
              + " (0 repaired, 3 still different, 4 unverified, 5 in flight or timeout).")
  boolean waitForOutcome;

  @Option(
      names = "--wait-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description = "Longest the re-send and --wait each wait (default ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    OptionChecks.requireSeconds(spec, "--wait-timeout", waitTimeoutSeconds);
    CompareConfig task = taskFile.load();
    OptionChecks.requireTargets(taskFile.file, task, "compare repair");
    CommandLine cli = spec.commandLine();
    Repair repair =
        Repair.of(
            task,
            new Repair.Request(
                target, run, tables, deleteExtra, Duration.ofSeconds(waitTimeoutSeconds)),
            cli.getOut(),
            cli.getErr());
    if (dryRun) {
      return repair.dryRun();
    }
    try (StopHook hook = StopHook.install("cdc-compare-repair-stop", repair::stop)) {
      return repair.run(verifierGroup, waitForOutcome);
    }
  }
}
