package io.cdccompare.systemtests.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The soak's short version (issue 19): a minute of chaos — every fault kind of {@link Fault} at
 * least once, in a seeded order — under a live load, then the soak's guarantees. The long run is
 * the same test under {@code -Psoak} ({@code -Dsoak.seconds}, {@code -Dsoak.seed}), or the {@code
 * io.cdccompare.systemtests.Soak} main. Starts its own environment: it restarts servers.
 */
class SoakIT {

  @Test
  void underRandomFaultsEveryInjectedDifferenceIsFoundAndNoVerdictLies() throws Exception {
    // Given a live load, compares back to back, a fault every ~4 s and 6 injected differences
    SoakOptions options =
        SoakOptions.parse(
            "--seconds=" + System.getProperty("soak.seconds", "60"),
            "--seed=" + System.getProperty("soak.seed", "19"),
            "--fault-every=" + System.getProperty("soak.fault.every", "4"),
            "--differences=" + System.getProperty("soak.differences", "6"));

    // When the soak runs
    SoakOutcome outcome = new SoakRun(options).run();
    System.out.print(outcome.table());

    // Then the faults really happened: every kind, killed programs really gone (checked as killed)
    Set<Fault> kinds =
        outcome.faults().stream().map(Fault.Injected::kind).collect(Collectors.toSet());
    assertThat(kinds).as("fault kinds injected").containsExactlyInAnyOrder(Fault.values());
    assertThat(outcome.injections()).hasSize(options.injections());
    // and nothing was lost, no verdict lied
    SoakVerdicts.Checked checked = outcome.checked();
    assertThat(checked.falseDifferences()).as("false differences").isEmpty();
    assertThat(checked.notFound()).as("injected differences not reported").isEmpty();
    assertThat(checked.found()).isEqualTo(options.injections());
    assertThat(checked.conflictingVerdicts()).as("chunks with two verdicts").isEmpty();
    assertThat(checked.incomplete()).as("completed runs missing verdicts").isEmpty();
    assertThat(checked.runsComplete()).as("compare runs that completed").isGreaterThanOrEqualTo(2);
    assertThat(outcome.unexpectedTargetDiffs()).as("targets vs source").isEmpty();
    assertThat(outcome.leftProcesses()).as("processes left").isEmpty();
    assertThat(outcome.leftDirectories()).as("directories left").isEmpty();
  }
}
