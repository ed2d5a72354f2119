package io.cdccompare.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.cdccompare.embedded.EmbeddedEnvironment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README's run command as a user runs it: {@code cdc-compare env up} in its own process, the
 * printed settings used to connect to every server, then SIGTERM, as an operator's script or
 * Kubernetes sends it, leaves nothing behind (SIGINT, Ctrl-C, runs the same shutdown hooks and is
 * sent to the demo in {@link DemoIT} and to a capture in {@link StopOnSigtermIT}).
 */
class EnvUpIT {
  private static final Logger LOG = LoggerFactory.getLogger(EnvUpIT.class);

  /** The bound within which docs/commands.md says {@code env up} stops. */
  private static final Duration STOP_BOUND = Duration.ofSeconds(15);

  @Test
  void envUpPrintsWorkingSettingsAndSigtermLeavesNothingRunning() throws Exception {
    // Given
    Path jar = Path.of("target", "cdc-compare.jar").toAbsolutePath();
    assertThat(jar).exists();
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                jar.toString(),
                "env",
                "up",
                "--with",
                "all")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();

    // When: it reports ready
    Map<String, String> settings = new LinkedHashMap<>();
    Path root = null;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith(EnvUpCommand.READY_LINE)) {
          root = Path.of(line.substring(EnvUpCommand.READY_LINE.length()).trim());
          break;
        }
        int eq = line.indexOf('=');
        if (!line.startsWith("#") && eq > 0) {
          settings.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      assertThat(root).as("ready line").isNotNull();
      List<ProcessHandle> children = process.descendants().filter(ProcessHandle::isAlive).toList();

      // Then: every printed setting works
      assertThat(settings)
          .containsKeys(
              "bootstrap.servers",
              "schema.registry.url",
              "postgres-source.jdbc.url",
              "postgres-target.jdbc.url",
              "mariadb.jdbc.url");
      try (Admin admin =
          Admin.create(Map.of("bootstrap.servers", settings.get("bootstrap.servers")))) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
      }
      HttpResponse<String> subjects =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(settings.get("schema.registry.url") + "/subjects"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(subjects.statusCode()).isEqualTo(200);
      for (String db : List.of("postgres-source", "postgres-target", "mariadb")) {
        try (Connection c =
                DriverManager.getConnection(
                    settings.get(db + ".jdbc.url"),
                    settings.get(db + ".user"),
                    settings.get(db + ".password"));
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT 40 + 2")) {
          rs.next();
          assertThat(rs.getInt(1)).as(db).isEqualTo(42);
        }
      }
      // And MariaDB's URL names a database of the project's own, not the mysql system database
      try (Connection c =
              DriverManager.getConnection(
                  settings.get("mariadb.jdbc.url"),
                  settings.get("mariadb.user"),
                  settings.get("mariadb.password"));
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo(EmbeddedEnvironment.MARIADB_DATABASE);
      }

      // When: SIGTERM (Process.destroy() sends SIGTERM on Linux; destroyForcibly() SIGKILL)
      long t0 = System.nanoTime();
      process.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
      Duration took = Duration.ofNanos(System.nanoTime() - t0);

      // Then: it ended with the JVM's code for SIGTERM within the stated bound, and no server
      // process and no temporary directory is left
      assertThat(process.exitValue()).isEqualTo(143);
      assertThat(took).isLessThan(STOP_BOUND);
      LOG.info("command=env-up stop_ms={}", took.toMillis());
      assertThat(children.size()).isGreaterThanOrEqualTo(5);
      assertThat(children).noneMatch(ProcessHandle::isAlive);
      Path envRoot = root;
      List<String> mentioning = new ArrayList<>();
      ProcessHandle.allProcesses()
          .filter(ProcessHandle::isAlive)
          .forEach(
              p ->
                  p.info()
                      .commandLine()
                      .filter(c -> c.contains(envRoot.toString()))
                      .ifPresent(mentioning::add));
      assertThat(mentioning).isEmpty();
      assertThat(Files.exists(root)).isFalse();
    } finally {
      process.destroyForcibly();
    }
  }
}
