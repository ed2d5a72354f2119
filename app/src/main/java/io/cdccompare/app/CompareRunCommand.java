package io.cdccompare.app;

import io.cdccompare.producer.compare.CompareConfig;
import io.cdccompare.producer.compare.CompareRun;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare compare run -c FILE [--restart]}: runs a full compare task to its end. Ctrl-C
 * stops it after the chunk being read is closed; the next run continues after it.
 *
 * <p>Exit codes: 0 every table noted to its end, 1 failure, 2 bad configuration, 130 stopped by
 * Ctrl-C before the end.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a full compare task: every table in key-ordered chunks, each chunk hashed and noted"
            + " (keys: compare-producer/README.md). A stopped task continues where it stopped.")
final class CompareRunCommand implements Callable<Integer> {
  static final int EXIT_STOPPED = 130;

  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "Task file (Java properties, Kafka-style keys).")
  Path config;

  @Option(
      names = "--restart",
      description = "Start a new run even if the last one stopped before its end.")
  boolean restart;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    CompareRun run = new CompareRun(CompareConfig.load(config), restart);
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              run.stop();
              Awaits.quietly(finished);
            },
            "cdc-compare-compare-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      CompareRun.Summary summary = run.run();
      var out = spec.commandLine().getOut();
      for (CompareRun.TableDone table : summary.tables()) {
        out.printf(
            "%s run=%s chunks=%d rows=%d compared=%d%s%n",
            table.table(),
            table.runId(),
            table.chunks(),
            table.rows(),
            table.comparedRows(),
            table.restarted() ? " (restarted: key or compared columns changed)" : "");
      }
      out.printf(
          "task run %s %s%n",
          summary.taskRunId(),
          summary.complete() ? "noted every chunk" : "stopped; run again to continue");
      out.flush();
      return summary.complete() ? CdcCompare.EXIT_OK : EXIT_STOPPED;
    } finally {
      finished.countDown();
      Awaits.removeHook(hook);
    }
  }
}
