package io.cdccompare.app;

import io.cdccompare.operations.metrics.ProgramMetrics;
import picocli.CommandLine.Option;

/** The {@code --metrics-port PORT} option of the long-running commands (a picocli mixin). */
final class MetricsPortOption {
  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description =
          "Serve Prometheus metrics on /metrics and the health on /health at this port"
              + " (default: off; 0 picks a free port).")
  Integer port;

  /** The command's metrics: a no-op registry without the option. */
  ProgramMetrics open() {
    return ProgramMetrics.open(port);
  }
}
