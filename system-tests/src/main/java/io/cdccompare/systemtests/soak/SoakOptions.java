package io.cdccompare.systemtests.soak;

import java.time.Duration;

/**
 * What a soak does: how long the chaos lasts, the seed of every random choice, the rows per table,
 * the number of differences injected on the targets and the pause between faults.
 */
public record SoakOptions(
    Duration chaos, long seed, int rowsPerTable, int injections, Duration faultEvery) {
  public SoakOptions {
    if (chaos.isNegative() || chaos.isZero()) {
      throw new IllegalArgumentException("the chaos lasts a positive time, was " + chaos);
    }
    if (injections < 0 || rowsPerTable < 1600) {
      throw new IllegalArgumentException("injections >= 0 and rows per table >= 1600");
    }
  }

  /**
   * {@code --minutes=N | --seconds=N, --seed=S, --rows=N, --differences=K, --fault-every=SECONDS}.
   */
  public static SoakOptions parse(String... args) {
    Duration chaos = Duration.ofMinutes(3);
    long seed = System.currentTimeMillis();
    int rows = 4000;
    Integer injections = null;
    Duration faultEvery = Duration.ofSeconds(6);
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("options are --name=value, was " + arg);
      }
      switch (kv[0]) {
        case "--minutes" -> chaos = Duration.ofSeconds((long) (Double.parseDouble(kv[1]) * 60));
        case "--seconds" -> chaos = Duration.ofSeconds(Long.parseLong(kv[1]));
        case "--seed" -> seed = Long.parseLong(kv[1]);
        case "--rows" -> rows = Integer.parseInt(kv[1]);
        case "--differences" -> injections = Integer.parseInt(kv[1]);
        case "--fault-every" -> faultEvery = Duration.ofSeconds(Long.parseLong(kv[1]));
        default -> throw new IllegalArgumentException("unknown option " + kv[0]);
      }
    }
    int k =
        injections != null ? injections : (int) Math.max(6, Math.min(60, chaos.toMinutes() * 2));
    return new SoakOptions(chaos, seed, rows, k, faultEvery);
  }
}
