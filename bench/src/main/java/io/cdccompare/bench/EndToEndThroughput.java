package io.cdccompare.bench;

import io.cdccompare.bench.e2e.BenchLogging;
import io.cdccompare.bench.e2e.E2eOptions;
import io.cdccompare.bench.e2e.E2eReport;
import io.cdccompare.bench.e2e.EndToEndBenchmark;
import io.cdccompare.bench.e2e.StoppableBenchmark;
import io.cdccompare.bench.e2e.TableRun;
import java.util.List;
import java.util.Optional;

/**
 * What a user waits for, end to end (a plain main, not JMH; it never gates the build): on the
 * embedded environment (Kafka, registry, source PostgreSQL, the targets asked for) or on external
 * servers, per table the initial copy of N bulk-loaded rows through the stream (capture with {@code
 * snapshot=never}, one verifier JVM per target applying), then a full compare at deep=100 until the
 * last verdict of every target is on the results topic: rows/s of each, the producer alone, the
 * verdict lag, CPU per row of every process and the heap of every JVM. See bench/README.md.
 *
 * <p>Arguments: {@code [rows] [--targets=pg,maria] [--table=narrow|pair|both] [--chunk=N]
 * [--external=FILE]}. Ctrl-C or SIGTERM stops everything it started (and, on external servers,
 * removes what it created).
 */
public final class EndToEndThroughput {
  private EndToEndThroughput() {}

  public static void main(String[] args) throws Exception {
    BenchLogging.useOwnConfiguration();
    E2eOptions options = E2eOptions.parse(args);
    Optional<List<TableRun>> runs =
        StoppableBenchmark.runUntilStopped(new EndToEndBenchmark(options), "e2e-stop");
    if (runs.isPresent()) {
      E2eReport.print(options, options.external() != null, runs.get(), System.out);
    }
  }
}
