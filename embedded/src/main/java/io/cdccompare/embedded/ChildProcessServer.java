package io.cdccompare.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A server of the environment that runs as one child process of this JVM. */
abstract class ChildProcessServer extends LocalServer {
  /** The running server's process: null before it starts and after it is closed. */
  protected volatile ChildProcess process;

  ChildProcessServer(Component component, Path dir, String logName, int port) {
    super(component, dir, logName, port);
  }

  @Override
  public List<ProcessHandle> processes() {
    ChildProcess p = process;
    return p == null ? List.of() : p.handles();
  }

  /** Kills the server's process at once, as a crash would (for fault tests). */
  public void kill() {
    ChildProcess p = process;
    if (p != null) {
      p.kill();
    }
  }

  /** Stops the process with {@code signal}, killing it after {@code grace}; then it is closed. */
  protected void stop(String signal, Duration grace) {
    ChildProcess p = process;
    if (p != null) {
      p.stop(signal, grace);
      process = null;
    }
  }
}
