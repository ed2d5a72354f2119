package io.cdccompare.bench.e2e;

import static io.cdccompare.bench.e2e.BenchArgs.number;
import static io.cdccompare.bench.e2e.BenchArgs.putSetting;
import static io.cdccompare.bench.e2e.BenchArgs.value;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments of {@code EndToEndThroughput}: {@code [rows] [--targets=pg,maria]
 * [--table=narrow|pair|both] [--chunk=N] [--warmup=N] [--verifier-setting=KEY=VALUE]...
 * [--compare-setting=KEY=VALUE]... [--preload] [--external=FILE]}.
 *
 * @param rows rows loaded into each table (default 1 000 000)
 * @param targets the targets; empty for the default (embedded: {@code pg,maria}; external: every
 *     target of the file)
 * @param tables the tables, measured one after the other (default both)
 * @param chunk the compare's chunk size, null for the task default (10 000)
 * @param warmupRows rows of the unmeasured warm-up table copied and compared first (default 20 000;
 *     0: none)
 * @param verifierSettings extra keys of the verifiers' targets file ({@code
 *     streams.consumer.fetch.max.wait.ms=10}, {@code apply.batch.size=2000}, …), to measure a
 *     tuning
 * @param compareSettings extra keys of the compare task file ({@code flow.chunks.ahead=0}, …)
 * @param preload load the rows on the source and on every target directly, before the capture
 *     starts, instead of copying them through the stream: the compare alone, without the copy's
 *     time (a 10 M-row compare without a 15-minute copy)
 * @param external a file naming external servers, null for the embedded environment
 */
public record E2eOptions(
    long rows,
    List<String> targets,
    List<BenchTable> tables,
    Integer chunk,
    long warmupRows,
    Map<String, String> verifierSettings,
    Map<String, String> compareSettings,
    boolean preload,
    Path external) {

  public E2eOptions {
    if (rows < 1) {
      throw new IllegalArgumentException("rows must be at least 1, was " + rows);
    }
    if (warmupRows < 0) {
      throw new IllegalArgumentException("--warmup must not be negative, was " + warmupRows);
    }
    if (chunk != null && chunk < 1) {
      throw new IllegalArgumentException("--chunk must be at least 1, was " + chunk);
    }
    targets = List.copyOf(targets);
    verifierSettings = Map.copyOf(verifierSettings);
    compareSettings = Map.copyOf(compareSettings);
    tables = List.copyOf(tables);
  }

  /** Parses the command line; throws {@link IllegalArgumentException} naming a bad argument. */
  public static E2eOptions parse(String... args) {
    long rows = 1_000_000;
    List<String> targets = new ArrayList<>();
    List<BenchTable> tables = List.of(BenchTable.NARROW, BenchTable.PAIR);
    Integer chunk = null;
    long warmupRows = 20_000;
    Map<String, String> verifierSettings = new LinkedHashMap<>();
    Map<String, String> compareSettings = new LinkedHashMap<>();
    boolean preload = false;
    Path external = null;
    for (String arg : args) {
      if (arg.startsWith("--targets=")) {
        targets =
            Arrays.stream(value(arg).split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .toList();
      } else if (arg.startsWith("--table=")) {
        tables = tables(value(arg));
      } else if (arg.startsWith("--chunk=")) {
        chunk = Integer.parseInt(number(arg));
      } else if (arg.startsWith("--warmup=")) {
        warmupRows = Long.parseLong(number(arg));
      } else if (arg.startsWith("--verifier-setting=")) {
        putSetting(verifierSettings, arg);
      } else if (arg.startsWith("--compare-setting=")) {
        putSetting(compareSettings, arg);
      } else if (arg.equals("--preload")) {
        preload = true;
      } else if (arg.startsWith("--external=")) {
        external = Path.of(value(arg));
      } else if (arg.startsWith("--")) {
        throw new IllegalArgumentException(
            "unknown option "
                + arg
                + " (rows, --targets=, --table=, --chunk=, --warmup=, --verifier-setting=,"
                + " --compare-setting=, --preload, --external=)");
      } else {
        rows = Long.parseLong(arg.replace("_", ""));
      }
    }
    if (external == null && targets.isEmpty()) {
      targets = Servers.EMBEDDED_TARGETS;
    }
    return new E2eOptions(
        rows,
        targets,
        tables,
        chunk,
        warmupRows,
        verifierSettings,
        compareSettings,
        preload,
        external);
  }

  private static List<BenchTable> tables(String value) {
    if (value.equals("both")) {
      return List.of(BenchTable.NARROW, BenchTable.PAIR);
    }
    for (BenchTable t : BenchTable.values()) {
      if (t.option().equals(value)) {
        return List.of(t);
      }
    }
    throw new IllegalArgumentException("--table=narrow, pair or both, was " + value);
  }
}
