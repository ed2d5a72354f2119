package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.app.CdcCompare;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Every container's arguments parse against the real command line ({@link CdcCompare}), without
 * running anything: the command exists, every flag exists on it and takes the value given, and the
 * {@code -c} file is one the pod mounts.
 */
class CliFlagsTest {
  /**
   * Flags that issue 18 §1 adds to these commands in parallel with the manifests, tolerated (taken
   * out before parsing) only while the command line does not have them yet. Once a command has the
   * flag, its value is parsed like any other.
   */
  static final Map<String, List<String>> PENDING =
      Map.of("--metrics-port", List.of("capture", "verify", "run"));

  @ParameterizedTest
  @MethodSource("io.cdccompare.deploy.Rendered#all")
  void everyContainerCommandParses(Rendered rendered) {
    for (ObjectNode workload : rendered.workloads()) {
      for (ObjectNode container : KustomizeRenderer.containers(workload)) {
        // Given the container's arguments (the image's entry point is the cdc-compare jar)
        List<String> args = args(container);

        // When they are parsed by the real command line
        ParseResult parsed = parse(args);

        // Then they name a command that runs a configuration file the pod mounts
        ParseResult leaf = leaf(parsed);
        assertThat(leaf.commandSpec().name()).isIn("capture", "verify", "alerts", "run");
        Object value = leaf.matchedOptionValue("-c", null);
        String config = value == null ? null : value.toString();
        assertThat(config).as(workload.path("metadata").path("name").asText() + " -c").isNotNull();
        assertThat(ManifestLinks.mountedFiles(workload, container)).contains(config);
      }
    }
  }

  @Test
  void aFlagTheCommandLineDoesNotHaveIsRefused() {
    // Given arguments with a flag no command has, then the parse fails naming it
    assertThatThrownBy(() -> parse(List.of("verify", "-c", "x.properties", "--targett", "a")))
        .isInstanceOf(CommandLine.UnmatchedArgumentException.class)
        .hasMessageContaining("--targett");
  }

  @Test
  void aPendingFlagIsToleratedOnlyOnItsCommands() {
    // Given --metrics-port on a command issue 18 does not give it to
    List<String> args =
        List.of("alerts", "-c", "t.properties", "--webhook", "http://h", "--metrics-port", "9404");

    // Then it is refused like any unknown flag
    assertThatThrownBy(() -> parse(args)).isInstanceOf(CommandLine.ParameterException.class);
  }

  static List<String> args(JsonNode container) {
    assertThat(container.has("command"))
        .as("containers use the image's entry point (the cdc-compare jar): args only")
        .isFalse();
    List<String> args = new ArrayList<>();
    container.path("args").forEach(a -> args.add(a.asText()));
    return args;
  }

  /** Parses against the real command line, leaving out a pending flag its command lacks. */
  static ParseResult parse(List<String> args) {
    CommandLine cli = new CommandLine(new CdcCompare());
    List<String> effective = new ArrayList<>(args);
    PENDING.forEach(
        (flag, commands) -> {
          int at = effective.indexOf(flag);
          if (at < 0) {
            return;
          }
          CommandLine command = commandOf(cli, effective);
          boolean known = command.getCommandSpec().findOption(flag) != null;
          if (!known && commands.contains(command.getCommandName())) {
            effective.remove(at + 1);
            effective.remove(at);
          }
        });
    return cli.parseArgs(effective.toArray(String[]::new));
  }

  private static CommandLine commandOf(CommandLine cli, List<String> args) {
    CommandLine current = cli;
    for (String a : args) {
      CommandLine sub = current.getSubcommands().get(a);
      if (sub == null) {
        break;
      }
      current = sub;
    }
    return current;
  }

  private static ParseResult leaf(ParseResult parsed) {
    ParseResult r = parsed;
    while (r.subcommand() != null) {
      r = r.subcommand();
    }
    return r;
  }
}
