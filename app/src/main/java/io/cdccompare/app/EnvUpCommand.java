package io.cdccompare.app;

import io.cdccompare.core.stream.ExitCode;
import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.EmbeddedServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cdc-compare env up}: starts the embedded environment, prints its connection settings and
 * runs until Ctrl-C or SIGTERM, like a local development stack. Either stops every server and
 * deletes every temporary directory (the environment's shutdown hook); the JVM then exits 130 or
 * 143.
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description =
        "Start the embedded environment, print its connection settings, run until Ctrl-C.")
final class EnvUpCommand implements Callable<Integer> {
  static final String READY_LINE = "# ready; Ctrl-C stops every server and deletes ";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--with",
      paramLabel = "COMPONENTS",
      defaultValue = "all",
      description =
          "Comma separated: kafka, registry, postgres (source and target),"
              + " postgres-source, postgres-target, mariadb, connect (a Kafka Connect worker"
              + " with Debezium and Apicurio's Avro converter), all (every one but connect;"
              + " default: ${DEFAULT-VALUE}).")
  String with;

  @Option(
      names = "--settings-file",
      paramLabel = "FILE",
      description = "Also write the connection settings to FILE (Java properties).")
  Path settingsFile;

  @Override
  public Integer call() throws Exception {
    Set<Component> components = parse(with);
    PrintWriter out = spec.commandLine().getOut();
    out.println("# starting " + names(components) + " ...");
    out.flush();
    EmbeddedEnvironment env = EmbeddedEnvironment.start(components);
    Map<String, String> settings = env.connectionSettings();
    settings.forEach((k, v) -> out.println(k + "=" + v));
    if (settingsFile != null) {
      writeSettings(settings, settingsFile);
    }
    out.println(READY_LINE + env.root());
    out.flush();
    return watch(env);
  }

  /**
   * Runs until the JVM ends (Ctrl-C or SIGTERM: the environment's shutdown hook stops every
   * server); fails (exit 1) if a server dies on its own, naming it and its log.
   */
  private int watch(EmbeddedEnvironment env) throws InterruptedException {
    while (true) {
      Thread.sleep(1000);
      Optional<EmbeddedServer> stopped = env.stoppedServer();
      if (stopped.isPresent()) {
        EmbeddedServer server = stopped.get();
        spec.commandLine()
            .getErr()
            .println(
                "cdc-compare: "
                    + server.component().displayName()
                    + " stopped unexpectedly (log: "
                    + server.log()
                    + ")");
        env.close();
        return ExitCode.FAILURE.code();
      }
    }
  }

  private static void writeSettings(Map<String, String> settings, Path file) throws IOException {
    StringBuilder text = new StringBuilder("# cdc-compare embedded environment\n");
    settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Files.writeString(file, text);
  }

  private static String names(Set<Component> components) {
    return String.join(", ", components.stream().map(Component::displayName).toList());
  }

  /** Turns {@code --with} into components; an unknown name is a usage error (exit 2). */
  private Set<Component> parse(String value) {
    try {
      return Component.parseList(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--with: " + e.getMessage());
    }
  }
}
