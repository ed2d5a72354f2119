package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.operations.config.TargetsConfig;
import io.cdccompare.operations.http.HttpEndpoint;
import io.cdccompare.operations.page.ReportPage;
import io.cdccompare.operations.page.ReportView;
import io.cdccompare.report.aggregate.ReportReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare report serve -c FILE --port P [--bind ADDR]}: serves the report page live and
 * read-only ({@link HttpEndpoint}: GET only): a background thread reads the report and results
 * topics (and the status figures) every {@code --refresh} seconds and builds the page, each request
 * gets the latest one, and the page reloads itself. Binds 127.0.0.1 unless {@code --bind} says
 * otherwise. Ctrl-C or SIGTERM stops it (exit 130).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Serve the report page live and read-only on http://ADDR:PORT/ (refreshed from the report"
            + " and results topics); binds 127.0.0.1 unless --bind. Ctrl-C stops.")
final class ReportServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ReportServeCommand.class);

  @Mixin TargetsFileOption targetsFile;

  @Option(
      names = "--port",
      required = true,
      paramLabel = "P",
      description = "Port (0: a free one).")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      defaultValue = "127.0.0.1",
      description = "Address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
  String bind;

  @Option(names = "--task", paramLabel = "NAME", description = "Show this task only.")
  String task;

  @Option(
      names = "--max-keys",
      paramLabel = "N",
      defaultValue = "1000",
      description = "Keys kept per kind and table (default ${DEFAULT-VALUE}; 0: all).")
  int maxKeys;

  @Option(
      names = "--explain",
      paramLabel = "N",
      defaultValue = "0",
      description = "Explain the first N difference keys of each table and target.")
  int explain;

  @Option(
      names = "--refresh",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "How often the page is read again (default ${DEFAULT-VALUE}).")
  long refreshSeconds;

  @Mixin ReadTimeoutOption readTimeout;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    OptionChecks.requireSeconds(spec, "--refresh", refreshSeconds);
    Duration timeout = readTimeout.checked(spec);
    if (maxKeys < 0 || explain < 0 || port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--port must be 0..65535, --max-keys and --explain 0 or more");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--bind " + bind + " is no address: " + e.getMessage());
    }
    TargetsConfig targets = targetsFile.load();
    AtomicReference<HttpEndpoint.Response> page =
        new AtomicReference<>(HttpEndpoint.Response.text(503, "the first read is under way\n"));
    Runnable refresh = () -> page.set(build(targets, timeout));
    CountDownLatch stop = new CountDownLatch(1);
    ScheduledExecutorService reads =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cdc-compare-report-serve");
              t.setDaemon(true);
              return t;
            });
    try (HttpEndpoint endpoint =
            HttpEndpoint.start(
                new InetSocketAddress(address, port),
                "report page address",
                "cdc-compare-report-http",
                Map.of("/", page::get));
        StopHook hook = StopHook.install("cdc-compare-report-serve-stop", stop::countDown)) {
      reads.scheduleWithFixedDelay(refresh, 0, refreshSeconds, TimeUnit.SECONDS);
      var err = spec.commandLine().getErr();
      err.printf(
          "serving the report of %s on http://%s:%d/ (read-only, refreshed every %d s); Ctrl-C"
              + " stops%n",
          targets.topicPrefix(), address.getHostAddress(), endpoint.port(), refreshSeconds);
      err.flush();
      stop.await();
      reads.shutdownNow();
      err.println("stopped");
      err.flush();
      return ExitCode.STOPPED.code();
    } finally {
      reads.shutdownNow();
    }
  }

  private HttpEndpoint.Response build(TargetsConfig targets, Duration timeout) {
    try {
      ReportReader reader = targets.reportReader(timeout);
      ReportView view =
          ReportView.read(
              targets,
              reader,
              new ReportView.Options(Optional.ofNullable(task), true, maxKeys, explain, true),
              timeout);
      String html =
          ReportPage.render(
              view.page(
                  targets.topicPrefix(),
                  Optional.of(ReportView.status(targets, timeout)),
                  (int) Math.min(Integer.MAX_VALUE, refreshSeconds)));
      return new HttpEndpoint.Response(
          200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      LOG.warn("report page not read: {}", e.toString());
      return HttpEndpoint.Response.text(
          503,
          "the report cannot be read now (retried every " + refreshSeconds + " s): " + e + "\n");
    }
  }
}
