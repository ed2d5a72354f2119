package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.alerts.AlertForwarder;
import io.cdccompare.operations.alerts.AlertMessage;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.metrics.HealthCheck;
import io.cdccompare.operations.metrics.ProgramMetrics;
import io.cdccompare.report.aggregate.ReportConfig;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare alerts -c FILE --webhook URL [--format slack|json] [--group GROUP]}: follows
 * the alerts topic and POSTs every alert to a webhook, at least once, until Ctrl-C or SIGTERM
 * ({@link AlertForwarder}: retried with backoff while the webhook fails, never committed past an
 * alert it did not take, one message per alert key and run).
 */
@Command(
    name = "alerts",
    mixinStandardHelpOptions = true,
    description =
        "Follow the alerts topic and POST every alert to a webhook (Slack or JSON), until Ctrl-C.")
final class AlertsCommand implements Callable<Integer> {
  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = "--webhook",
      required = true,
      paramLabel = "URL",
      description = "The http or https URL each alert is POSTed to.")
  String webhook;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "json",
      description = "json (the alert's fields, default) or slack (an incoming-webhook message).")
  String format;

  @Option(
      names = "--group",
      paramLabel = "GROUP",
      description = "Consumer group whose offsets say what was sent (default <prefix>-alerts).")
  String group;

  @Mixin MetricsPortOption metricsPort;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    AlertMessage message;
    URI url;
    try {
      message = AlertMessage.parse(format);
      url = URI.create(webhook);
      if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
        throw new IllegalArgumentException(
            "--webhook must be an http or https URL, was " + webhook);
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    TargetsConfig targets = targetsFile.load();
    ReportConfig report = targets.reportConfig();
    Map<String, Object> consumer = new HashMap<>(targets.withPrefix("consumer."));
    consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, targets.bootstrapServers());
    consumer.put(
        ConsumerConfig.GROUP_ID_CONFIG, group == null ? targets.topicPrefix() + "-alerts" : group);
    AlertForwarder forwarder =
        new AlertForwarder(
            consumer,
            report.serdeConfig(),
            report.alertsTopic(),
            url,
            message,
            Duration.ofSeconds(1),
            Duration.ofMinutes(1));
    // JVM metrics and a /health that answers 200 while the forwarder runs: a webhook that fails
    // is retried, not a reason to restart the process
    try (StopHook hook = StopHook.install("cdc-compare-alerts-stop", forwarder::stop);
        ProgramMetrics served = metricsPort.open().serve(HealthCheck.alwaysHealthy())) {
      var err = spec.commandLine().getErr();
      err.printf(
          "forwarding the alerts of %s to %s (%s); Ctrl-C stops%n",
          report.alertsTopic(), url, format);
      err.flush();
      long sent = forwarder.run();
      err.printf("stopped after sending %d alerts%n", sent);
      err.flush();
      return ExitCode.OK.code();
    }
  }
}
