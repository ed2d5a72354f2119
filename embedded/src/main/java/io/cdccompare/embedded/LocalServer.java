package io.cdccompare.embedded;

import java.nio.file.Path;

/**
 * A server of the environment as every one of them is laid out: its component, a directory of its
 * own, a log file in that directory and one loopback port, chosen before it starts.
 */
abstract class LocalServer implements EmbeddedServer {
  private final Component component;

  /** The server's own directory: configuration, data and log. */
  protected final Path dir;

  protected final Path log;
  protected final int port;

  /**
   * @param logName the name of the log file in {@code dir}
   */
  LocalServer(Component component, Path dir, String logName, int port) {
    this.component = component;
    this.dir = dir;
    this.log = dir.resolve(logName);
    this.port = port;
  }

  @Override
  public Component component() {
    return component;
  }

  @Override
  public Path log() {
    return log;
  }

  /** The loopback port the server listens on. */
  public int port() {
    return port;
  }

  /** Fails the start, naming the port, when another process listens on it already. */
  protected void refuseTakenPort() {
    if (FreePort.taken(port)) {
      throw new ComponentStartException(
          component, log, "port " + port + " is already in use", null);
    }
  }
}
