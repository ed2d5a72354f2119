package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandLineTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void helpOnEveryCommandExitsZero() {
    assertThat(run("--help")).isEqualTo(CdcCompare.EXIT_OK);
    assertThat(out.toString()).contains("Usage: cdc-compare").contains("env");
    assertThat(run("env", "--help")).isEqualTo(CdcCompare.EXIT_OK);
    assertThat(run("env", "up", "--help")).isEqualTo(CdcCompare.EXIT_OK);
    assertThat(out.toString()).contains("--with").contains("--settings-file");
  }

  @Test
  void unknownCommandIsAUsageError() {
    assertThat(run("frobnicate")).isEqualTo(CdcCompare.EXIT_USAGE);
    assertThat(err.toString()).contains("'frobnicate'");
  }

  @Test
  void missingCommandIsAUsageError() {
    assertThat(run()).isEqualTo(CdcCompare.EXIT_USAGE);
    assertThat(run("env")).isEqualTo(CdcCompare.EXIT_USAGE);
    assertThat(err.toString()).contains("required");
  }

  @Test
  void unknownComponentIsAUsageErrorNamingIt() {
    assertThat(run("env", "up", "--with", "kafka,oracle")).isEqualTo(CdcCompare.EXIT_USAGE);
    assertThat(err.toString()).contains("--with").contains("unknown component 'oracle'");
    assertThat(out.toString()).doesNotContain("starting");
  }
}
