package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.metrics.ProgramMetrics;
import io.cdccompare.operations.run.RunningVerifier;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare verify -c FILE [--target NAME]}: applies the replicated changes to one target
 * and verifies every noted chunk there, until Ctrl-C (the JVM then exits 130). Exit 1 when the
 * verifier stopped by itself (a poison record, a resync needed: the line names topic, partition and
 * offset).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Apply the replicated changes to one target and verify every noted chunk on it, until"
            + " Ctrl-C (keys: docs/reference/configuration.md).")
final class VerifyCommand implements Callable<Integer> {
  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = {"-t", "--target"},
      paramLabel = "NAME",
      description = "The target to run (required when the file defines several).")
  String target;

  @Mixin MetricsPortOption metricsPort;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    TargetsConfig targets = targetsFile.load();
    String name = targets.targetName(target);
    ProgramMetrics metrics = metricsPort.open();
    RunningVerifier verifier;
    try {
      verifier =
          RunningVerifier.start(targets, name, targets.reportAggregate(), metrics.registry());
    } catch (Exception | Error e) {
      metrics.close();
      throw e;
    }
    // closed in reverse order: the metrics server, the verifier, then the hook, which a Ctrl-C
    // may be waiting on
    try (StopHook hook = StopHook.install("cdc-compare-verify-stop", verifier::close);
        RunningVerifier running = verifier;
        ProgramMetrics served = metrics.serve(running::problem)) {
      var err = spec.commandLine().getErr();
      err.printf(
          "verifying target %s (application %s); Ctrl-C stops%n",
          name, running.settings().applicationId());
      err.flush();
      running.awaitStop(Duration.ofDays(365_000));
      running.requireHealthy();
      return ExitCode.OK.code();
    }
  }
}
