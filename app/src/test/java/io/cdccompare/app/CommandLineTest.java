package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.core.stream.CdcCompareException;
import io.cdccompare.core.stream.ErrorCode;
import io.cdccompare.core.stream.ExitCode;
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
    assertThat(run("--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("Usage: cdc-compare").contains("env");
    assertThat(run("env", "--help")).isEqualTo(ExitCode.OK.code());
    assertThat(run("env", "up", "--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("--with").contains("--settings-file");
  }

  @Test
  void alertsRefusesAnotherFormatOrAWebhookThatIsNoHttpUrlBeforeReadingAnything() {
    assertThat(
            run(
                "alerts",
                "-c",
                "/nonexistent/t.properties",
                "--webhook",
                "http://h/x",
                "--format",
                "xml"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("--format must be json or slack, was 'xml'");
    assertThat(run("alerts", "-c", "/nonexistent/t.properties", "--webhook", "ftp://h/x"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("--webhook must be an http or https URL, was ftp://h/x");
    assertThat(run("alerts", "-c", "/nonexistent/t.properties", "--webhook", "http://h/x"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("/nonexistent/t.properties");
  }

  @Test
  void aSchemaDriftStopExitsFourLikeAResyncNeededAndAnotherFailureExitsOne() {
    // Given the errors compare run stops with
    CdcCompareException drift =
        new CdcCompareException(
            ErrorCode.SCHEMA_DRIFT,
            "table public.items changed on the source during run r: column 'r' is now float8");
    CdcCompareException resync =
        new CdcCompareException(ErrorCode.RESYNC_NEEDED, "the table topic no longer holds them");

    // Then schema drift exits 4 (the README's exit-code table), as a resync needed does
    assertThat(CdcCompare.exitCode(drift)).isEqualTo(ExitCode.UNVERIFIABLE.code()).isEqualTo(4);
    assertThat(CdcCompare.exitCode(resync)).isEqualTo(ExitCode.UNVERIFIABLE.code());
    assertThat(CdcCompare.exitCode(new IllegalStateException("schema drift in the message")))
        .isEqualTo(ExitCode.FAILURE.code());
  }

  @Test
  void unknownCommandIsAUsageError() {
    assertThat(run("frobnicate")).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("'frobnicate'");
  }

  @Test
  void missingCommandIsAUsageError() {
    assertThat(run()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run("env")).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("required");
  }

  @Test
  void unknownComponentIsAUsageErrorNamingIt() {
    assertThat(run("env", "up", "--with", "kafka,oracle")).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("--with").contains("unknown component 'oracle'");
    assertThat(out.toString()).doesNotContain("starting");
  }

  @Test
  void compareRunWithAMissingFileIsAConfigurationError() {
    // Given a task file that does not exist
    // When the task is run
    int exit = run("compare", "run", "-c", "/nonexistent/task.properties");

    // Then one line names the file and the exit code is 2
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip())
        .isEqualTo("cdc-compare: configuration file /nonexistent/task.properties does not exist");
  }

  @Test
  void unknownKeysAreNamedOnEveryCommand(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    // Given a task file and a capture file, each with a misspelt key
    java.nio.file.Path task = dir.resolve("task.properties");
    java.nio.file.Files.writeString(task, minimal() + "task.name=t\ndeeep=5\n");
    java.nio.file.Path capture = dir.resolve("capture.properties");
    java.nio.file.Files.writeString(capture, minimal() + "topic.partitons=3\n");

    // When each is run / Then each exits 2 naming its key
    assertThat(run("compare", "run", "-c", task.toString())).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("deeep");
    assertThat(run("capture", "-c", capture.toString())).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("topic.partitons");
  }

  @Test
  void anUnreachableSourceIsOneLineAndExitOne(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given a valid task file whose source database does not listen
    java.nio.file.Path task = dir.resolve("task.properties");
    java.nio.file.Files.writeString(task, minimal() + "task.name=t\n");

    // When it is run
    int exit = run("compare", "run", "-c", task.toString());

    // Then one line names the database and the exit code is 1
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString())
        .contains("cannot connect to source database jdbc:postgresql://127.0.0.1:1/shop as cdc");
  }

  @Test
  void reportHelpListsItsOptions() {
    // Given / When the report command's help is asked for
    int exit = run("report", "--help");

    // Then it exits 0 and lists every option
    assertThat(exit).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString())
        .contains("Usage: cdc-compare report")
        .contains("--config=FILE")
        .contains("--task=NAME")
        .contains("--output=FORMAT")
        .contains("--keys")
        .contains("--max-keys=N")
        .contains("--timeout=SECONDS");
    assertThat(run("--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("  report ");
  }

  @Test
  void reportWithAMissingFileIsAConfigurationError() {
    // Given a targets file that does not exist
    // When the report is asked for
    int exit = run("report", "-c", "/nonexistent/targets.properties");

    // Then one line names the file and the exit code is 2
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip())
        .isEqualTo(
            "cdc-compare: configuration file /nonexistent/targets.properties does not exist");
  }

  @Test
  void reportWithAnUnknownFormatIsAUsageError() {
    // Given / When an output format that does not exist is asked for
    int exit = run("report", "-c", "/nonexistent/targets.properties", "-o", "yaml");

    // Then exit 2 naming the option
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("--output").contains("yaml");
  }

  @Test
  void compareRunWaitWithoutTargetsNamesTheKeyBeforeAnythingRuns(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given a task file without the targets key (and a source that does not listen)
    java.nio.file.Path task = dir.resolve("task.properties");
    java.nio.file.Files.writeString(task, minimal() + "task.name=t\n");

    // When it is run with --wait
    int exit = run("compare", "run", "-c", task.toString(), "--wait");

    // Then exit 2 with one line naming the key; the source was never tried
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("--wait needs the key targets").doesNotContain("source");
  }

  @Test
  void compareRunRefusesAnUnknownKindAndARestartOfAnIncrementalRunBeforeAnythingRuns(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given a task file (and a source that does not listen)
    java.nio.file.Path task = dir.resolve("task.properties");
    java.nio.file.Files.writeString(task, minimal() + "task.name=t\n");

    // When / Then: a misspelled kind is named, exit 2, the source never tried
    assertThat(run("compare", "run", "-c", task.toString(), "--kind", "incremntal"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString())
        .contains("--kind must be full or incremental, was 'incremntal'")
        .doesNotContain("source");

    // and --restart makes no sense for an incremental run
    err.getBuffer().setLength(0);
    assertThat(run("compare", "run", "-c", task.toString(), "--kind", "incremental", "--restart"))
        .isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString())
        .contains("--restart starts a full run over")
        .doesNotContain("source");
  }

  @Test
  void compareRunWaitHelpListsItsOptions() {
    // Given / When / Then
    assertThat(run("compare", "run", "--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("--wait").contains("--wait-timeout=SECONDS");
  }

  @Test
  void statusHelpExitsZeroAndNamesItsOptions() {
    // When
    int exit = run("status", "--help");

    // Then
    assertThat(exit).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString())
        .contains("Usage: cdc-compare status")
        .contains("--config")
        .contains("--output")
        .contains("--timeout");
    assertThat(run("--help")).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString()).contains("status");
  }

  @Test
  void statusWithAMissingFileIsAConfigurationError() {
    // When
    int exit = run("status", "-c", "/nonexistent/targets.properties");

    // Then
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip())
        .isEqualTo(
            "cdc-compare: configuration file /nonexistent/targets.properties does not exist");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void statusWithAnUnknownOutputFormatIsAUsageError(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given
    java.nio.file.Path targets = dir.resolve("targets.properties");
    java.nio.file.Files.writeString(targets, minimal() + "target.pg.url=jdbc:postgresql://x/y\n");

    // When
    int exit = run("status", "-c", targets.toString(), "-o", "yaml");

    // Then
    assertThat(exit).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("--output").contains("yaml");
  }

  @Test
  void statusWithNothingReachableNamesEveryPartAndExitsOne(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given a targets file whose source, Kafka and target do not listen
    java.nio.file.Path targets = dir.resolve("targets.properties");
    java.nio.file.Files.writeString(
        targets, minimal() + "target.pg.url=jdbc:postgresql://127.0.0.1:1/target\n");

    // When
    int exit = run("status", "-c", targets.toString(), "--timeout", "2");

    // Then every part is one UNREACHABLE line naming it, and the exit code is 1
    assertThat(exit).as(err.toString()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(out.toString().lines())
        .anyMatch(
            l ->
                l.startsWith(
                    "CAPTURE  slot cdc_compare_shop  jdbc:postgresql://127.0.0.1:1/shop "
                        + " UNREACHABLE  cannot connect to source database"))
        .anyMatch(l -> l.startsWith("TARGETS  kafka 127.0.0.1:1  UNREACHABLE  "))
        .anyMatch(
            l ->
                l.startsWith(
                    "  pg  jdbc:postgresql://127.0.0.1:1/target  UNREACHABLE  cannot connect to"
                        + " target pg at jdbc:postgresql://127.0.0.1:1/target"))
        .anyMatch(l -> l.startsWith("COMPARES  shop.compare.report  UNREACHABLE  "));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void captureWithAnUnreachableSourceIsOneLineAndExitOne(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // Given a valid capture file whose source database does not listen
    java.nio.file.Path capture = dir.resolve("capture.properties");
    java.nio.file.Files.writeString(capture, minimal());

    // When the capture is started
    int exit = run("capture", "-c", capture.toString());

    // Then one line names the database and the exit code is 1
    assertThat(exit).isEqualTo(ExitCode.FAILURE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString())
        .contains("cannot connect to source database jdbc:postgresql://127.0.0.1:1/shop as cdc");
  }

  private static String minimal() {
    return "topic.prefix=shop\n"
        + "bootstrap.servers=127.0.0.1:1\n"
        + "schema.registry.url=http://127.0.0.1:1\n"
        + "source.hostname=127.0.0.1\n"
        + "source.port=1\n"
        + "source.database=shop\n"
        + "source.user=cdc\n"
        + "tables=public.orders\n";
  }
}
