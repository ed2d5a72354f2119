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

  /**
   * Freezes the server's processes with SIGSTOP: its port stays open, connections stay up, nothing
   * answers (a server that is up but unreachable, for fault tests). {@link #resume()} undoes it.
   */
  public void pause() {
    signalAll("STOP");
  }

  /** Lets a {@linkplain #pause() paused} server run again (SIGCONT). */
  public void resume() {
    signalAll("CONT");
  }

  private void signalAll(String signal) {
    ChildProcess p = process;
    if (p != null) {
      p.handles().forEach(h -> ChildProcess.signal(h.pid(), signal));
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
