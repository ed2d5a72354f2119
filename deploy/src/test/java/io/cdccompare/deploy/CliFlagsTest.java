package io.cdccompare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdccompare.app.CdcCompare;
import java.util.ArrayList;
import java.util.List;
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

  static List<String> args(JsonNode container) {
    assertThat(container.has("command"))
        .as("containers use the image's entry point (the cdc-compare jar): args only")
        .isFalse();
    List<String> args = new ArrayList<>();
    container.path("args").forEach(a -> args.add(a.asText()));
    return args;
  }

  /** Parses against the real command line. */
  static ParseResult parse(List<String> args) {
    return new CommandLine(new CdcCompare()).parseArgs(args.toArray(String[]::new));
  }

  private static ParseResult leaf(ParseResult parsed) {
    ParseResult r = parsed;
    while (r.subcommand() != null) {
      r = r.subcommand();
    }
    return r;
  }
}
