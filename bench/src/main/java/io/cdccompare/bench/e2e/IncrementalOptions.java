package io.cdccompare.bench.e2e;

import static io.cdccompare.bench.e2e.BenchArgs.number;
import static io.cdccompare.bench.e2e.BenchArgs.putSetting;
import static io.cdccompare.bench.e2e.BenchArgs.value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments of {@code IncrementalVsFull}: {@code [--rows=N] [--changed=K] [--targets=pg,maria]
 * [--rounds=N] [--warmup=N] [--warmup-rounds=N] [--verifier-setting=KEY=VALUE]...
 * [--compare-setting=KEY=VALUE]...}.
 *
 * @param rows rows preloaded into the measured table (default 1 000 000)
 * @param changed keys changed between the full and the incremental run (default 1 000): 60 %
 *     updates, 20 % inserts, the rest deletes
 * @param targets the embedded targets (default {@code pg}; {@code pg,maria} for both)
 * @param rounds full run, changes, incremental run: how many times, one after the other, in the
 *     same process (default 1)
 * @param warmupRows rows of the unmeasured warm-up table (its full and incremental run come first;
 *     default 20 000, 0 for none)
 * @param warmupRounds how many times the warm-up table's full run, changes and incremental run come
 *     first (default 2)
 * @param verifierSettings extra keys of the verifiers' targets file
 * @param compareSettings extra keys of the compare task file
 */
public record IncrementalOptions(
    long rows,
    int changed,
    List<String> targets,
    int rounds,
    long warmupRows,
    int warmupRounds,
    Map<String, String> verifierSettings,
    Map<String, String> compareSettings) {

  public IncrementalOptions {
    if (rows < 10) {
      throw new IllegalArgumentException("--rows must be at least 10, was " + rows);
    }
    if (changed < 1 || changed > rows / 2) {
      throw new IllegalArgumentException(
          "--changed must be 1.." + rows / 2 + " (half the rows), was " + changed);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
    }
    if (warmupRows != 0 && warmupRows < 100) {
      throw new IllegalArgumentException("--warmup must be 0 or at least 100, was " + warmupRows);
    }
    if (warmupRounds < 1) {
      throw new IllegalArgumentException("--warmup-rounds must be at least 1, was " + warmupRounds);
    }
    targets = List.copyOf(targets);
    verifierSettings = Map.copyOf(verifierSettings);
    compareSettings = Map.copyOf(compareSettings);
  }

  /** Parses the command line; throws {@link IllegalArgumentException} naming a bad argument. */
  public static IncrementalOptions parse(String... args) {
    long rows = 1_000_000;
    int changed = 1_000;
    List<String> targets = new ArrayList<>(List.of("pg"));
    int rounds = 1;
    long warmupRows = 20_000;
    int warmupRounds = 2;
    Map<String, String> verifierSettings = new LinkedHashMap<>();
    Map<String, String> compareSettings = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.startsWith("--rows=")) {
        rows = Long.parseLong(number(arg));
      } else if (arg.startsWith("--changed=")) {
        changed = Integer.parseInt(number(arg));
      } else if (arg.startsWith("--targets=")) {
        targets =
            Arrays.stream(value(arg).split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .toList();
      } else if (arg.startsWith("--rounds=")) {
        rounds = Integer.parseInt(number(arg));
      } else if (arg.startsWith("--warmup=")) {
        warmupRows = Long.parseLong(number(arg));
      } else if (arg.startsWith("--warmup-rounds=")) {
        warmupRounds = Integer.parseInt(number(arg));
      } else if (arg.startsWith("--verifier-setting=")) {
        putSetting(verifierSettings, arg);
      } else if (arg.startsWith("--compare-setting=")) {
        putSetting(compareSettings, arg);
      } else {
        throw new IllegalArgumentException(
            "unknown argument "
                + arg
                + " (--rows=, --changed=, --targets=, --rounds=, --warmup=, --warmup-rounds=,"
                + " --verifier-setting=, --compare-setting=)");
      }
    }
    for (String target : targets) {
      if (!Servers.EMBEDDED_TARGETS.contains(target)) {
        throw new IllegalArgumentException(
            "--targets: " + target + " is none of " + Servers.EMBEDDED_TARGETS);
      }
    }
    return new IncrementalOptions(
        rows,
        changed,
        targets,
        rounds,
        warmupRows,
        warmupRounds,
        verifierSettings,
        compareSettings);
  }
}
