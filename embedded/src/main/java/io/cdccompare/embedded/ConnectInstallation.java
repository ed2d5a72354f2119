package io.cdccompare.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Where the Kafka Connect worker's jars and plugin folders are, laid out as in a Kafka
 * distribution: {@code libs/} (the worker's class path) and {@code plugins/<name>/} (its {@code
 * plugin.path}). Found at {@code -Dcdc.connect.home}, else in {@code connect/} beside our own jar
 * (an installed {@code lib/}), else where the build put them (connect-distribution's modules,
 * recorded in {@code cdc-compare-embedded.properties}).
 *
 * @param libs the worker's jars: {@code connect-runtime} and its dependencies, an SLF4J binding
 * @param pluginPath the {@code plugin.path} entries: folders whose sub-folders are plugins
 */
record ConnectInstallation(Path libs, List<Path> pluginPath) {
  static final String HOME_PROPERTY = "cdc.connect.home";

  ConnectInstallation {
    pluginPath = List.copyOf(pluginPath);
  }

  static ConnectInstallation locate() throws IOException {
    String configured = System.getProperty(HOME_PROPERTY);
    if (configured != null) {
      return inHome(Path.of(configured));
    }
    Path own = Path.of(RegistryServer.ownCodeLocation());
    if (Files.isRegularFile(own) && Files.isDirectory(own.resolveSibling("connect"))) {
      return inHome(own.resolveSibling("connect"));
    }
    Properties props = buildProperties();
    ConnectInstallation built =
        new ConnectInstallation(
            Path.of(props.getProperty("connect.libs")),
            Arrays.stream(props.getProperty("connect.plugin.path").split(","))
                .map(Path::of)
                .toList());
    return built.checked("the build's output (run the Maven build once: mvn -B package)");
  }

  private static ConnectInstallation inHome(Path home) throws IOException {
    return new ConnectInstallation(home.resolve("libs"), List.of(home.resolve("plugins")))
        .checked(home.toString());
  }

  private ConnectInstallation checked(String where) throws IOException {
    List<Path> missing = new ArrayList<>();
    if (jars(libs).isEmpty()) {
      missing.add(libs);
    }
    pluginPath.stream().filter(p -> !Files.isDirectory(p)).forEach(missing::add);
    if (!missing.isEmpty()) {
      throw new IOException(
          "Kafka Connect installation incomplete in " + where + ": missing " + missing);
    }
    return this;
  }

  /** The worker's class path: every jar in {@link #libs()}. */
  String classPath() throws IOException {
    return String.join(
        java.io.File.pathSeparator, jars(libs).stream().map(Path::toString).toList());
  }

  /** Every plugin folder, by its name. */
  List<Path> plugins() throws IOException {
    List<Path> plugins = new ArrayList<>();
    for (Path root : pluginPath) {
      try (Stream<Path> dirs = Files.list(root)) {
        dirs.filter(Files::isDirectory).sorted().forEach(plugins::add);
      }
    }
    return plugins;
  }

  private static List<Path> jars(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList();
    }
  }

  static Properties buildProperties() throws IOException {
    Properties props = new Properties();
    try (InputStream in =
        ConnectInstallation.class
            .getClassLoader()
            .getResourceAsStream("cdc-compare-embedded.properties")) {
      if (in == null) {
        throw new IOException("cdc-compare-embedded.properties missing from the class path");
      }
      props.load(in);
    }
    return props;
  }
}
