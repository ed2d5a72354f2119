package io.cdccompare.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.FileAppender;
import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.demo.Demo;
import io.cdccompare.demo.DemoResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare demo}: the whole job on the embedded environment, narrated (see {@link Demo}).
 * Logs go to a file so that the narration stays readable. Exit 0 when the second compare found
 * exactly the injected differences, 1 otherwise or on failure; Ctrl-C ends it with the JVM's 130.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Run the whole job on the embedded environment: sample shop, capture, two targets"
            + " (PostgreSQL and MariaDB), live load, full compare, injected differences, compare"
            + " again. Ctrl-C stops everything.")
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--rows",
      defaultValue = "200000",
      paramLabel = "N",
      description = "Rows of the sample shop in all (default: ${DEFAULT-VALUE}).")
  int rows;

  @Option(
      names = "--log-file",
      paramLabel = "FILE",
      description = "Where the logs go (default: <tmp>/cdc-compare-demo.log).")
  Path logFile;

  @Option(
      names = "--keep-running",
      description =
          "After the last step keep everything running (servers, capture, verifiers, load) and"
              + " print the commands to try against it, until Ctrl-C.")
  boolean keepRunning;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (rows < 1_000) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--rows must be at least 1000, was " + rows);
    }
    Path log =
        logFile != null
            ? logFile
            : Path.of(System.getProperty("java.io.tmpdir"), "cdc-compare-demo.log");
    logTo(log);
    PrintWriter out = spec.commandLine().getOut();
    out.println("cdc-compare demo — logs: " + log);
    out.flush();
    Demo demo = new Demo(rows, out, System.console() != null);
    // Ctrl-C stops everything at once: the demo's data is disposable, no step needs finishing
    Thread hook = new Thread(demo::close, "cdc-compare-demo-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      DemoResult result = demo.run();
      if (!result.asExpected()) {
        out.println("The report or the repair differs from what the demo injected:");
        result.problems().forEach(p -> out.println("  " + p));
        out.flush();
        return ExitCode.FAILURE.code();
      }
      out.printf(
          "Done in %s: target a is in sync; target b differed by exactly the three injected rows,"
              + " named by key, and the repair fixed exactly those. %d live transactions ran"
              + " meanwhile.%s%n",
          result.elapsed(), result.loadTransactions(), keepRunning ? "" : " Stopping everything.");
      out.flush();
      if (keepRunning) {
        keepRunning(demo, out);
      }
      return ExitCode.OK.code();
    } finally {
      demo.close();
      Awaits.removeHook(hook);
    }
  }

  /** Prints the commands to try against the running demo, then waits for Ctrl-C. */
  private static void keepRunning(Demo demo, PrintWriter out) throws InterruptedException {
    Path files = demo.configDir();
    out.println();
    out.println("Everything keeps running (the load too); try, in another terminal:");
    out.println("  ./cdc-compare report -c " + files.resolve("targets.properties") + " --keys");
    out.println("  ./cdc-compare status -c " + files.resolve("targets.properties"));
    out.println("  ./cdc-compare compare run -c " + files.resolve("task.properties") + " --wait");
    out.println("Ctrl-C here stops everything.");
    out.flush();
    new CountDownLatch(1).await();
  }

  /** Sends every log line to {@code file} instead of standard error. */
  private static void logTo(Path file) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n");
    encoder.start();
    FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("DEMO_FILE");
    appender.setFile(file.toString());
    appender.setAppend(false);
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    root.addAppender(appender);
  }
}
