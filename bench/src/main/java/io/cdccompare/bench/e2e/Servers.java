package io.cdccompare.bench.e2e;

import io.cdccompare.embedded.Component;
import io.cdccompare.embedded.EmbeddedEnvironment;
import io.cdccompare.embedded.EmbeddedServer;
import io.cdccompare.embedded.JdbcServer;
import io.cdccompare.embedded.PostgresServer;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the benchmark runs: Kafka, the schema registry, the source PostgreSQL and the targets,
 * either started here (the embedded environment: every process is measured) or named by an external
 * file (nothing is started; only this JVM and the verifier JVMs are measured). {@link #close()}
 * stops the embedded environment, or deletes the work directory of an external run.
 */
public final class Servers implements AutoCloseable {
  static final String SOURCE_POSTGRES = "source PostgreSQL";
  static final String TARGET_POSTGRES = "target PostgreSQL";
  static final String MARIADB = "MariaDB";
  static final String BROKER = "Kafka broker";
  static final String REGISTRY = "schema registry";

  /** The embedded targets: {@code pg} (PostgreSQL 17) and {@code maria} (MariaDB 11.4). */
  public static final List<String> EMBEDDED_TARGETS = List.of("pg", "maria");

  private static final Set<String> EXTERNAL_KEYS =
      Set.of(
          "bootstrap.servers",
          "schema.registry.url",
          "source.hostname",
          "source.port",
          "source.database",
          "source.user",
          "source.password");
  private static final Pattern TARGET_KEY =
      Pattern.compile("target\\.([A-Za-z0-9_-]+)\\.(url|user|password)");

  /** The source database. */
  public record Source(String host, int port, String database, String user, String password) {
    Connection connect() throws SQLException {
      return DriverManager.getConnection(
          "jdbc:postgresql://" + host + ":" + port + "/" + database, user, password);
    }
  }

  /** One target database. */
  public record Target(String name, TargetKind kind, String url, String user, String password) {
    Connection connect() throws SQLException {
      return DriverManager.getConnection(url, user, password);
    }

    @Override
    public String toString() {
      return name + " (" + kind.label() + ", " + url.split("\\?")[0] + ")";
    }
  }

  private final EmbeddedEnvironment env;
  private final String bootstrapServers;
  private final String registryUrl;
  private final Source source;
  private final List<Target> targets;
  private final Path workDir;
  private final String topicPrefix;
  private final String tablePrefix;

  private Servers(
      EmbeddedEnvironment env,
      String bootstrapServers,
      String registryUrl,
      Source source,
      List<Target> targets,
      Path workDir,
      String topicPrefix,
      String tablePrefix) {
    this.env = env;
    this.bootstrapServers = bootstrapServers;
    this.registryUrl = registryUrl;
    this.source = source;
    this.targets = List.copyOf(targets);
    this.workDir = workDir;
    this.topicPrefix = topicPrefix;
    this.tablePrefix = tablePrefix;
  }

  /** Starts Kafka, the registry, the source and the named embedded targets. */
  public static Servers embedded(List<String> targetNames) throws IOException {
    Set<Component> components =
        EnumSet.of(Component.KAFKA, Component.REGISTRY, Component.SOURCE_POSTGRES);
    for (String name : targetNames) {
      components.add(embeddedComponent(name));
    }
    EmbeddedEnvironment env = EmbeddedEnvironment.start(components);
    try {
      PostgresServer pg = env.sourcePostgres();
      String db = pg.createDatabase("e2e");
      List<Target> targets = new ArrayList<>();
      for (String name : targetNames) {
        JdbcServer server = (JdbcServer) env.server(embeddedComponent(name));
        String database = server.createDatabase("e2e");
        targets.add(
            new Target(
                name,
                TargetKind.ofUrl(server.jdbcUrl(database)),
                server.jdbcUrl(database),
                server.user(),
                server.password()));
      }
      return new Servers(
          env,
          env.kafka().bootstrapServers(),
          env.registry().confluentApiUrl(),
          new Source(pg.host(), pg.port(), db, pg.user(), pg.password()),
          targets,
          Files.createDirectories(env.root().resolve("e2e")),
          "e2e",
          "");
    } catch (RuntimeException | IOException e) {
      env.close();
      throw e;
    }
  }

  private static Component embeddedComponent(String target) {
    return switch (target) {
      case "pg" -> Component.TARGET_POSTGRES;
      case "maria" -> Component.MARIADB;
      default ->
          throw new IllegalArgumentException(
              "--targets: the embedded targets are " + EMBEDDED_TARGETS + ", not " + target);
    };
  }

  /**
   * The servers an external file names: {@code bootstrap.servers}, {@code schema.registry.url},
   * {@code source.hostname|port|database|user|password} and {@code target.<name>.url|user|password}
   * for each target; any other key is refused. Topics and tables get a random prefix of this run.
   *
   * @param targetNames the targets to use; empty for every target of the file
   */
  public static Servers external(Path file, List<String> targetNames) throws IOException {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      props.load(in);
    }
    Map<String, Map<String, String>> sections = new LinkedHashMap<>();
    for (String key : new java.util.TreeSet<>(props.stringPropertyNames())) {
      Matcher m = TARGET_KEY.matcher(key);
      if (m.matches()) {
        sections
            .computeIfAbsent(m.group(1), n -> new LinkedHashMap<>())
            .put(m.group(2), value(props, key));
      } else if (!EXTERNAL_KEYS.contains(key)) {
        throw new IllegalArgumentException(
            file
                + ": unknown key "
                + key
                + " (known: "
                + EXTERNAL_KEYS
                + ", target.<name>.url|user|password)");
      }
    }
    List<String> names = targetNames.isEmpty() ? new ArrayList<>(sections.keySet()) : targetNames;
    if (names.isEmpty()) {
      throw new IllegalArgumentException(file + ": no target.<name>.url");
    }
    List<Target> targets = new ArrayList<>();
    for (String name : new LinkedHashSet<>(names)) {
      Map<String, String> section = sections.get(name);
      if (section == null || section.get("url") == null) {
        throw new IllegalArgumentException(
            file + ": --targets names " + name + ", which has no target." + name + ".url");
      }
      String url = section.get("url");
      targets.add(
          new Target(
              name,
              TargetKind.ofUrl(url),
              url,
              section.getOrDefault("user", ""),
              section.getOrDefault("password", "")));
    }
    String run = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
    String topicPrefix = "cdce2e" + run;
    return new Servers(
        null,
        required(props, file, "bootstrap.servers"),
        required(props, file, "schema.registry.url"),
        new Source(
            required(props, file, "source.hostname"),
            Integer.parseInt(props.getProperty("source.port", "5432").trim()),
            required(props, file, "source.database"),
            required(props, file, "source.user"),
            value(props, "source.password")),
        targets,
        Files.createTempDirectory("cdc-compare-e2e-"),
        topicPrefix,
        topicPrefix + "_");
  }

  private static String required(Properties props, Path file, String key) {
    String v = value(props, key);
    if (v.isEmpty()) {
      throw new IllegalArgumentException(file + ": " + key + " is required");
    }
    return v;
  }

  private static String value(Properties props, String key) {
    return props.getProperty(key, "").trim();
  }

  public boolean external() {
    return env == null;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String registryUrl() {
    return registryUrl;
  }

  public Source source() {
    return source;
  }

  public List<Target> targets() {
    return targets;
  }

  /** Where the configuration files, the verifiers' logs and their state go. */
  public Path workDir() {
    return workDir;
  }

  /** The capture's topic prefix: {@code e2e}, or {@code cdce2e<random>} on external servers. */
  public String topicPrefix() {
    return topicPrefix;
  }

  /** Put before the tables' names: {@code ""}, or {@code <topic prefix>_} on external servers. */
  public String tablePrefix() {
    return tablePrefix;
  }

  /**
   * The server processes to measure, by part ({@link ProcessCpuMeter}): every embedded server's
   * processes; none on external servers.
   */
  public Map<String, List<Long>> serverProcesses() {
    Map<String, List<Long>> roots = new LinkedHashMap<>();
    if (env == null) {
      return roots;
    }
    roots.put(SOURCE_POSTGRES, pids(env.sourcePostgres()));
    Set<Component> started = env.started();
    if (started.contains(Component.TARGET_POSTGRES)) {
      roots.put(TARGET_POSTGRES, pids(env.targetPostgres()));
    }
    if (started.contains(Component.MARIADB)) {
      roots.put(MARIADB, pids(env.mariadb()));
    }
    roots.put(BROKER, pids(env.kafka()));
    roots.put(REGISTRY, pids(env.registry()));
    return roots;
  }

  private static List<Long> pids(EmbeddedServer server) {
    return server.processes().stream().map(ProcessHandle::pid).toList();
  }

  /** Stops the embedded environment (deleting its directory), or deletes the work directory. */
  @Override
  public void close() {
    if (env != null) {
      env.close();
    } else {
      deleteTree(workDir);
    }
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e.getMessage());
    }
  }
}
