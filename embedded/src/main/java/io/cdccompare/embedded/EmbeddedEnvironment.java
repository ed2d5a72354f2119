package io.cdccompare.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded environment: real servers (Kafka in KRaft mode, a schema registry, two PostgreSQL
 * servers, MariaDB, on request a Kafka Connect worker) started locally on free loopback ports,
 * without Docker, from Maven Central artifacts only. Used by the demo and by the tests.
 *
 * <p>Components start in parallel; more can be added later with {@link #ensureStarted(Set)}. {@link
 * #close()} stops every process and deletes the environment's temporary directory; a JVM shutdown
 * hook does the same on Ctrl-C. Environments left behind by a killed JVM are cleaned up when the
 * next one starts ({@link StaleEnvironments}). Thread-safe.
 */
public final class EmbeddedEnvironment implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedEnvironment.class);
  static final String ROOT_PREFIX = "cdc-compare-env-";

  /**
   * The MariaDB database that {@link #connectionSettings()} points to. MariaDB's {@linkplain
   * MariaDbServer#defaultDatabase() default} is the {@code mysql} system database, where a user's
   * tables (a verifier's bookkeeping tables among them) must not land.
   */
  public static final String MARIADB_DATABASE = "cdc_compare";

  private final Path root;
  private final Map<Component, EmbeddedServer> servers = new EnumMap<>(Component.class);
  private final Thread shutdownHook;
  private boolean closed;

  private EmbeddedEnvironment(Path root) {
    this.root = root;
    this.shutdownHook = new Thread(this::closeFromHook, "cdc-compare-env-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts the given components (in parallel) in a new environment. */
  public static EmbeddedEnvironment start(Set<Component> components) {
    EmbeddedEnvironment env = create();
    try {
      env.ensureStarted(components);
      return env;
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
  }

  /** A new environment with nothing started yet. */
  public static EmbeddedEnvironment create() {
    StaleEnvironments.reap(tempRoot());
    try {
      Path root = Files.createTempDirectory(tempRoot(), ROOT_PREFIX);
      BinaryCache.openForAll(root);
      Files.writeString(
          root.resolve(StaleEnvironments.OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
      return new EmbeddedEnvironment(root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the environment directory", e);
    }
  }

  static Path tempRoot() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * Starts the components not started yet, in parallel, and returns once all answer. If one fails,
   * the others started by this call are stopped and the first failure is thrown (a {@link
   * ComponentStartException} naming the component and its log).
   */
  public synchronized void ensureStarted(Set<Component> components) {
    if (closed) {
      throw new IllegalStateException("the environment is closed");
    }
    Set<Component> wanted = EnumSet.copyOf(components);
    if (wanted.contains(Component.CONNECT)) {
      wanted.add(Component.KAFKA); // the worker keeps its cluster's state in Kafka
    }
    // the worker starts after the rest: it needs the broker's address, and the registry for Avro
    Set<Component> first = EnumSet.copyOf(wanted);
    first.remove(Component.CONNECT);
    startInParallel(first);
    if (wanted.contains(Component.CONNECT)) {
      startInParallel(EnumSet.of(Component.CONNECT));
    }
  }

  private void startInParallel(Set<Component> components) {
    List<EmbeddedServer> toStart = new ArrayList<>();
    for (Component c : components) {
      if (!servers.containsKey(c)) {
        toStart.add(newServer(c));
      }
    }
    if (toStart.isEmpty()) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(toStart.size());
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (EmbeddedServer server : toStart) {
        futures.add(pool.submit(() -> startOne(server)));
      }
      RuntimeException failure = null;
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          RuntimeException cause =
              e.getCause() instanceof RuntimeException r
                  ? r
                  : new IllegalStateException(e.getCause());
          if (failure == null) {
            failure = cause;
          } else {
            failure.addSuppressed(cause);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = new IllegalStateException("interrupted while starting the environment", e);
        }
      }
      if (failure != null) {
        toStart.forEach(EmbeddedServer::close);
        throw keepLog(failure);
      }
      toStart.forEach(s -> servers.put(s.component(), s));
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The environment's directory is deleted on close, so the log of a server that failed to start is
   * copied to {@code ${java.io.tmpdir}/cdc-compare-logs/} and the error names the copy.
   */
  private static RuntimeException keepLog(RuntimeException failure) {
    if (!(failure instanceof ComponentStartException start) || !Files.exists(start.log())) {
      return failure;
    }
    try {
      Path kept = tempRoot().resolve("cdc-compare-logs");
      Files.createDirectories(kept);
      Path copy =
          kept.resolve(start.component().displayName() + "-" + System.currentTimeMillis() + ".log");
      Files.copy(start.log(), copy);
      ComponentStartException moved =
          new ComponentStartException(start.component(), copy, start.reason(), start.getCause());
      for (Throwable other : failure.getSuppressed()) {
        moved.addSuppressed(other);
      }
      return moved;
    } catch (IOException e) {
      failure.addSuppressed(e);
      return failure;
    }
  }

  private static void startOne(EmbeddedServer server) {
    long t0 = System.nanoTime();
    server.start();
    LOG.info(
        "component={} started_ms={} log={}",
        server.component().displayName(),
        (System.nanoTime() - t0) / 1_000_000,
        server.log());
  }

  private EmbeddedServer newServer(Component c) {
    Path dir = root.resolve(c.displayName());
    return switch (c) {
      case KAFKA -> new KafkaServer(dir, FreePort.next());
      case REGISTRY -> new RegistryServer(dir, FreePort.next());
      case SOURCE_POSTGRES, TARGET_POSTGRES -> new PostgresServer(c, dir, FreePort.next());
      case MARIADB -> new MariaDbServer(dir, FreePort.next());
      case CONNECT -> new ConnectServer(dir, FreePort.next(), kafka().bootstrapServers());
    };
  }

  /** The temporary directory holding every data directory and log of this environment. */
  public Path root() {
    return root;
  }

  public synchronized Set<Component> started() {
    return servers.isEmpty() ? EnumSet.noneOf(Component.class) : EnumSet.copyOf(servers.keySet());
  }

  public KafkaServer kafka() {
    return (KafkaServer) server(Component.KAFKA);
  }

  public RegistryServer registry() {
    return (RegistryServer) server(Component.REGISTRY);
  }

  public PostgresServer sourcePostgres() {
    return (PostgresServer) server(Component.SOURCE_POSTGRES);
  }

  public PostgresServer targetPostgres() {
    return (PostgresServer) server(Component.TARGET_POSTGRES);
  }

  public MariaDbServer mariadb() {
    return (MariaDbServer) server(Component.MARIADB);
  }

  /** The Kafka Connect worker: its REST URL, a client of its API, its fault controls. */
  public ConnectServer connect() {
    return (ConnectServer) server(Component.CONNECT);
  }

  /** A started component's server. */
  public synchronized EmbeddedServer server(Component c) {
    EmbeddedServer s = servers.get(c);
    if (s == null) {
      throw new IllegalStateException(c.displayName() + " was not started in this environment");
    }
    return s;
  }

  /** Every live process of every component. */
  public synchronized List<ProcessHandle> processes() {
    List<ProcessHandle> all = new ArrayList<>();
    servers.values().forEach(s -> all.addAll(s.processes()));
    return all;
  }

  /**
   * A started server none of whose processes is alive any more, if any: it died on its own. Empty
   * once the environment is closed (its servers stopped on purpose): the check and {@link #close()}
   * exclude each other, so a close running in a shutdown hook is never taken for a crash.
   */
  public synchronized Optional<EmbeddedServer> stoppedServer() {
    return servers.values().stream().filter(s -> s.processes().isEmpty()).findFirst();
  }

  /**
   * Connection settings of the started components as Kafka-style keys, in a stable order: {@code
   * bootstrap.servers}, {@code schema.registry.url}, {@code connect.rest.url}, and per database
   * {@code <name>.jdbc.url}, {@code <name>.user}, {@code <name>.password}. The PostgreSQL URLs name
   * the {@code postgres} database, the MariaDB URL {@value #MARIADB_DATABASE}, created here when
   * missing.
   */
  public synchronized Map<String, String> connectionSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    if (servers.containsKey(Component.KAFKA)) {
      settings.put("bootstrap.servers", kafka().bootstrapServers());
    }
    if (servers.containsKey(Component.REGISTRY)) {
      settings.put("schema.registry.url", registry().confluentApiUrl());
    }
    if (servers.containsKey(Component.CONNECT)) {
      settings.put("connect.rest.url", connect().restUrl());
    }
    for (Component c :
        List.of(Component.SOURCE_POSTGRES, Component.TARGET_POSTGRES, Component.MARIADB)) {
      if (servers.get(c) instanceof JdbcServer db) {
        String database =
            db instanceof MariaDbServer maria
                ? maria.ensureDatabase(MARIADB_DATABASE)
                : db.defaultDatabase();
        settings.put(c.displayName() + ".jdbc.url", db.jdbcUrl(database));
        settings.put(c.displayName() + ".user", db.user());
        settings.put(c.displayName() + ".password", db.password());
      }
    }
    return settings;
  }

  /** Stops every server (in parallel) and deletes the environment's directory. Idempotent. */
  @Override
  public void close() {
    closeServers();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to: it does the same work
    }
  }

  private void closeFromHook() {
    closeServers();
  }

  private synchronized void closeServers() {
    if (closed) {
      return;
    }
    closed = true;
    List<Thread> stoppers = new ArrayList<>();
    for (EmbeddedServer s : servers.values()) {
      Thread t = new Thread(() -> stopQuietly(s), "stop-" + s.component().displayName());
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    servers.clear();
    try {
      Directories.delete(root);
    } catch (UncheckedIOException e) {
      LOG.warn("root={} could not be deleted: {}", root, e.getMessage());
    }
  }

  private static void stopQuietly(EmbeddedServer s) {
    try {
      s.close();
    } catch (RuntimeException e) {
      LOG.warn("component={} did not stop cleanly: {}", s.component().displayName(), e.toString());
    }
  }
}
