package io.cdccompare.bench;

import io.cdccompare.bench.e2e.BenchLogging;
import io.cdccompare.bench.e2e.IncrementalBenchmark;
import io.cdccompare.bench.e2e.IncrementalOptions;
import io.cdccompare.bench.e2e.IncrementalReport;
import io.cdccompare.bench.e2e.StoppableBenchmark;
import java.util.List;
import java.util.Optional;

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
    Optional<List<IncrementalBenchmark.Round>> rounds =
        StoppableBenchmark.runUntilStopped(new IncrementalBenchmark(options), "incremental-stop");
    if (rounds.isPresent()) {
      IncrementalReport.print(options, rounds.get(), System.out);
    }
  }
}
