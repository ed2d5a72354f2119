package io.cdccompare.embedded;

import java.nio.file.Path;
import java.util.List;

/**
 * One real server run by the embedded environment. Implementations start in {@link #start()}
 * (blocking until the server answers) and stop every process they started in {@link #close()}.
 */
public interface EmbeddedServer extends AutoCloseable {

  Component component();

  /** The file the server's own output goes to; named in every start error. */
  Path log();

  /** Starts the server and returns once it answers on its port. */
  void start();

  /** The operating-system processes this server runs now (empty once closed). */
  List<ProcessHandle> processes();

  /** Stops the server; safe to call more than once and on a server that never started. */
  @Override
  void close();
}
