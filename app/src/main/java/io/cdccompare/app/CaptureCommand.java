package io.cdccompare.app;

import io.cdccompare.capture.Capture;
import io.cdccompare.capture.CaptureConfig;
import io.cdccompare.capture.CaptureMeters;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.metrics.ProgramMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare capture -c FILE}: streams the source's changes and notes to Kafka until
 * Ctrl-C. Wiring only: the capture lives in the capture module.
 */
@Command(
    name = "capture",
    mixinStandardHelpOptions = true,
    description =
        "Stream the source tables' changes and compare notes to Kafka until Ctrl-C"
            + " (keys: docs/reference/configuration.md).")
final class CaptureCommand implements Callable<Integer> {
  /**
   * How long a Ctrl-C waits for the command to return once the capture's stop returned (itself
   * bounded by {@link Capture#STOP_BOUND}): docs/commands.md's 10 s in all.
   */
  private static final Duration RETURNING = Duration.ofSeconds(2);

  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "Capture configuration (Java properties, Kafka-style keys).")
  Path config;

  @Mixin MetricsPortOption metricsPort;

  @Override
  public Integer call() throws Exception {
    CaptureConfig loaded = CaptureConfig.load(config);
    ProgramMetrics metrics = metricsPort.open();
    Capture capture = new Capture(loaded, new CaptureMeters(metrics.registry()));
    // closed in reverse order: the metrics server, then the hook
    try (StopHook hook = StopHook.install("cdc-compare-capture-stop", capture::stop, RETURNING);
        ProgramMetrics served = metrics.serve(() -> capture.failure().map(Throwable::getMessage))) {
      capture.run();
      return ExitCode.OK.code();
    }
  }
}
