package io.cdccompare.embedded;

import java.time.Duration;
import java.util.List;

/** A server of the environment that runs as one child process of this JVM. */
abstract class ChildProcessServer implements EmbeddedServer {
  /** The running server's process: null before it starts and after it is closed. */
  protected volatile ChildProcess process;

  @Override
  public List<ProcessHandle> processes() {
    ChildProcess p = process;
    return p == null ? List.of() : p.handles();
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
