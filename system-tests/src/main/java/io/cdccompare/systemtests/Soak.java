package io.cdccompare.systemtests;

import io.cdccompare.systemtests.soak.SoakOptions;
import io.cdccompare.systemtests.soak.SoakOutcome;
import io.cdccompare.systemtests.soak.SoakRun;

/**
 * The chaos soak of issue 19 on the embedded environment: {@code Soak --minutes=N --seed=S} (also
 * {@code --seconds}, {@code --rows}, {@code --differences}, {@code --fault-every}). Prints its
 * table; exits 1 when a guarantee did not hold.
 */
public final class Soak {
  private Soak() {}

  public static void main(String[] args) throws Exception {
    SoakOutcome outcome = new SoakRun(SoakOptions.parse(args)).run();
    System.out.println();
    System.out.print(outcome.table());
    System.exit(outcome.passed() ? 0 : 1);
  }
}
