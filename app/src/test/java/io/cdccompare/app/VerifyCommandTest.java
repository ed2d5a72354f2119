package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code verify}'s answers to bad input: one line naming the problem, exit 2 or 1. */
class VerifyCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CdcCompare.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static final String TARGETS =
      "topic.prefix=shop\n"
          + "bootstrap.servers=127.0.0.1:1\n"
          + "schema.registry.url=http://127.0.0.1:1\n"
          + "tables=public.orders\n"
          + "target.a.url=jdbc:postgresql://127.0.0.1:1/shop\n"
          + "target.a.user=cdc\n"
          + "target.b.url=jdbc:mariadb://127.0.0.1:1/shop\n";

  @Test
  void helpNamesTheOptions() {
    assertThat(run("verify", "--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("--config").contains("--target");
  }

  @Test
  void aMissingFileIsAConfigurationError() {
    assertThat(run("verify", "-c", "/nonexistent/targets.properties"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip())
        .isEqualTo(
            "cdc-compare: configuration file /nonexistent/targets.properties does not exist");
  }

  @Test
  void anUnknownKeyIsNamed(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("t.properties"), TARGETS + "target.a.usr=x\n");

    assertThat(run("verify", "-c", file.toString(), "--target", "a"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("target.a.usr").contains(file.toString());
  }

  @Test
  void severalTargetsNeedTheTargetOption(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("t.properties"), TARGETS);

    assertThat(run("verify", "-c", file.toString())).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("[a, b]").contains("--target");
    assertThat(run("verify", "-c", file.toString(), "-t", "c")).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("target 'c' is not defined");
  }

  @Test
  void anUnreachableTargetIsOneLineNamingItAndExitOne(@TempDir Path dir) throws Exception {
    // Given a valid file whose target database does not listen
    Path file = Files.writeString(dir.resolve("t.properties"), TARGETS);

    // When target a is verified
    int exit = run("verify", "-c", file.toString(), "--target", "a");

    // Then one line names the target, its URL and user, before anything touches Kafka
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString())
        .startsWith(
            "cdc-compare: cannot connect to target a at jdbc:postgresql://127.0.0.1:1/shop as cdc");
  }
}
