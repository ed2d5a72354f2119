package io.cdccompare.embedded;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cleans up after an environment whose JVM was killed (no shutdown hook ran): database servers it
 * started (recognised by their data directory on the command line) are killed and its directory is
 * deleted. Child JVMs need no help: {@link ParentWatchdog} halts them with their parent.
 */
final class StaleEnvironments {
  private static final Logger LOG = LoggerFactory.getLogger(StaleEnvironments.class);
  static final String OWNER_FILE = "owner.pid";

  private StaleEnvironments() {}

  static void reap(Path tempRoot) {
    try (DirectoryStream<Path> dirs =
        Files.newDirectoryStream(tempRoot, EmbeddedEnvironment.ROOT_PREFIX + "*")) {
      for (Path dir : dirs) {
        if (ownerGone(dir)) {
          reapOne(dir);
        }
      }
    } catch (IOException e) {
      LOG.warn("tmp={} not scanned for stale environments: {}", tempRoot, e.toString());
    }
  }

  private static boolean ownerGone(Path dir) {
    Path owner = dir.resolve(OWNER_FILE);
    try {
      long pid = Long.parseLong(Files.readString(owner).trim());
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      return handle.isEmpty() || !handle.get().isAlive();
    } catch (IOException | NumberFormatException e) {
      return false;
    }
  }

  private static void reapOne(Path dir) {
    String path = dir.toString();
    ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(cmd -> cmd.contains(path)).orElse(false))
        .forEach(
            p -> {
              LOG.warn("stale_env={} killing pid={}", dir, p.pid());
              p.destroyForcibly();
            });
    try {
      Directories.delete(dir);
    } catch (RuntimeException e) {
      LOG.warn("stale_env={} not deleted: {}", dir, e.toString());
    }
  }
}
