package io.cdccompare.bench;

import io.cdccompare.bench.e2e.BenchLogging;
import io.cdccompare.bench.e2e.IncrementalBenchmark;
import io.cdccompare.bench.e2e.IncrementalOptions;
import io.cdccompare.bench.e2e.IncrementalReport;
import java.util.List;

/**
 * Cost follows the changed keys, not the table (a plain main, not JMH; it never gates the build):
 * on the embedded environment, one table of N rows preloaded on the source and every target, the
 * capture and one verifier JVM per target running; per round, a full compare (deep=100) timed to
 * its last verdict on every target, then K keys changed and applied, then an incremental run timed
 * the same way, with where its time goes. See bench/README.md.
 *
 * <p>Arguments: {@code [--rows=N] [--changed=K] [--targets=pg,maria] [--rounds=N] [--warmup=N]
 * [--verifier-setting=KEY=VALUE] [--compare-setting=KEY=VALUE]}. Ctrl-C or SIGTERM stops everything
 * it started.
 */
public final class IncrementalVsFull {
  private IncrementalVsFull() {}

  public static void main(String[] args) throws Exception {
    BenchLogging.useOwnConfiguration();
    IncrementalOptions options = IncrementalOptions.parse(args);
    IncrementalBenchmark benchmark = new IncrementalBenchmark(options);
    Thread hook = new Thread(benchmark::close, "incremental-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    List<IncrementalBenchmark.Round> rounds;
    try {
      rounds = benchmark.run();
    } catch (Exception e) {
      if (benchmark.stopped()) {
        System.err.println("stopped before the end: no figures");
        return;
      }
      throw e;
    } finally {
      benchmark.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it closes the same things
      }
    }
    IncrementalReport.print(options, rounds, System.out);
  }
}
