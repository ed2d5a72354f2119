package io.cdccompare.bench.e2e;

import java.util.Map;

/** The {@code --name=value} arguments of the system benchmarks' mains. */
final class BenchArgs {
  private BenchArgs() {}

  /** What follows the first {@code =} of {@code --name=value}. */
  static String value(String arg) {
    return arg.substring(arg.indexOf('=') + 1);
  }

  /** The value of {@code --name=1_000_000} without its digit separators. */
  static String number(String arg) {
    return value(arg).replace("_", "");
  }

  /** {@code --option=KEY=VALUE} into {@code settings}. */
  static void putSetting(Map<String, String> settings, String arg) {
    String setting = value(arg);
    int eq = setting.indexOf('=');
    if (eq < 1) {
      throw new IllegalArgumentException(
          arg.substring(0, arg.indexOf('=')) + "=KEY=VALUE, was " + arg);
    }
    settings.put(setting.substring(0, eq), setting.substring(eq + 1));
  }
}
