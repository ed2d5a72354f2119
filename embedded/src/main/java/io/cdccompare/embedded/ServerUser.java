package io.cdccompare.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The operating-system user a database server runs as. PostgreSQL refuses to run as root, and build
 * machines and containers often are root: then the server runs as {@code nobody} through {@code
 * setpriv}, and its data directory is handed to that user. Otherwise it runs as we do.
 */
final class ServerUser {
  private static final String UNPRIVILEGED = "nobody";

  private ServerUser() {}

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** The command, run as the unprivileged user when we are root. */
  static List<String> wrap(List<String> command) {
    if (!isRoot()) {
      return command;
    }
    List<String> wrapped = new ArrayList<>();
    wrapped.add("setpriv");
    wrapped.add("--reuid=" + UNPRIVILEGED);
    wrapped.add("--regid=" + UNPRIVILEGED.replace("nobody", "nogroup"));
    wrapped.add("--clear-groups");
    wrapped.add("--");
    wrapped.addAll(command);
    return wrapped;
  }

  /** Makes the unprivileged user own a directory tree (a no-op unless we are root). */
  static void own(Path dir) {
    if (!isRoot()) {
      return;
    }
    try {
      UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
      UserPrincipal user = lookup.lookupPrincipalByName(UNPRIVILEGED);
      GroupPrincipal group = lookup.lookupPrincipalByGroupName("nogroup");
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) walk::iterator) {
          PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
          view.setOwner(user);
          view.setGroup(group);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot hand " + dir + " to user " + UNPRIVILEGED, e);
    }
  }
}
