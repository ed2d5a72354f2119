package io.cdccompare.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A schema registry with the Confluent-compatible REST API: Apicurio Registry (in-memory storage)
 * from its Maven Central distribution {@code io.apicurio:apicurio-registry-app:<v>:all:tar.gz},
 * unpacked once into the {@link BinaryCache} and run in a child JVM bound to 127.0.0.1.
 */
public final class RegistryServer extends ChildProcessServer {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  RegistryServer(Path dir, int port) {
    super(Component.REGISTRY, dir, "registry.log", port);
  }

  /**
   * Base URL of the Confluent-compatible API (what Confluent clients call {@code
   * schema.registry.url}).
   */
  public String confluentApiUrl() {
    return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
  }

  /**
   * Base URL of Apicurio's own v2 API: what Apicurio's serdes and Kafka Connect converter call
   * {@code apicurio.registry.url}.
   */
  public String apicurioApiUrl() {
    return "http://127.0.0.1:" + port + "/apis/registry/v2";
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(dir);
      Files.writeString(log, "");
      refuseTakenPort();
      Path home = distribution();
      Path runner = runnerJar(home);
      String classPath = ownCodeLocation() + java.io.File.pathSeparator + runner;
      List<String> command = new ArrayList<>();
      command.add(JavaCommand.javaBinary().toString());
      command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
      command.addAll(
          List.of(
              "-cp",
              classPath,
              ParentWatchdog.class.getName(),
              Long.toString(ProcessHandle.current().pid()),
              "io.quarkus.runner.GeneratedMain"));
      process =
          ChildProcess.start(
              "registry",
              command,
              home,
              Map.of(
                  "QUARKUS_HTTP_HOST", "127.0.0.1",
                  "QUARKUS_HTTP_PORT", Integer.toString(port),
                  "QUARKUS_LOG_LEVEL", "WARN",
                  "QUARKUS_LOG_CATEGORY__IO_QUARKUS__LEVEL", "INFO"),
              log);
      awaitReady();
    } catch (IOException e) {
      throw new ComponentStartException(component(), log, e.toString(), e);
    } catch (UncheckedIOException | IllegalStateException e) {
      throw new ComponentStartException(component(), log, e.getMessage(), e);
    }
  }

  private static Path runnerJar(Path home) throws IOException {
    try (var files = Files.list(home)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith("-runner.jar"))
          .findFirst()
          .orElseThrow(() -> new IOException("no *-runner.jar in " + home));
    }
  }

  static String ownCodeLocation() {
    try {
      return Path.of(
              ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Path distribution() throws IOException {
    Properties props = new Properties();
    try (InputStream in =
        RegistryServer.class
            .getClassLoader()
            .getResourceAsStream("cdc-compare-embedded.properties")) {
      if (in == null) {
        throw new IOException("cdc-compare-embedded.properties missing from the class path");
      }
      props.load(in);
    }
    String version = props.getProperty("apicurio.version");
    Path archive = locateArchive(props.getProperty("apicurio.archive"), version);
    return BinaryCache.unpackTar(
        "apicurio-registry-" + version,
        new BinaryCache.ArchiveSource() {
          @Override
          public InputStream open() throws IOException {
            return Files.newInputStream(archive);
          }

          @Override
          public boolean xz() {
            return false;
          }

          @Override
          public String description() {
            return archive.toString();
          }
        });
  }

  /**
   * The distribution archive: {@code -Dcdc.apicurio.archive}, else beside our own jar (the app's
   * {@code lib/}), else in the local Maven repository the build used.
   */
  private static Path locateArchive(String fromBuild, String version) throws IOException {
    String fileName = "apicurio-registry-app-" + version + "-all.tar.gz";
    List<Path> candidates = new ArrayList<>();
    String configured = System.getProperty("cdc.apicurio.archive");
    if (configured != null) {
      candidates.add(Path.of(configured));
    }
    Path own = Path.of(ownCodeLocation());
    if (own.getParent() != null) {
      candidates.add(own.getParent().resolve(fileName));
    }
    candidates.add(Path.of(fromBuild));
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IOException(
        "Apicurio Registry distribution not found; looked at "
            + candidates
            + " (run the Maven build once, it downloads io.apicurio:apicurio-registry-app:"
            + version
            + ":all:tar.gz)");
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(confluentApiUrl() + "/subjects"))
            .timeout(Duration.ofSeconds(3))
            .GET()
            .build();
    Readiness.await(
        component(),
        log,
        process,
        confluentApiUrl(),
        START_TIMEOUT,
        Duration.ofMillis(200),
        () -> {
          int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
          if (status != 200) {
            throw new IOException("HTTP " + status);
          }
        });
  }

  @Override
  public void close() {
    stop("TERM", Duration.ofSeconds(10));
  }
}
