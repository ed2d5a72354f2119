package io.cdccompare.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Recursive deletion of the environment's own temporary directories. */
final class Directories {
  private Directories() {}

  static void delete(Path path) {
    // a file that a stopping server removes meanwhile ends a walk: walk again, a few times
    for (int attempt = 1; ; attempt++) {
      try {
        deleteOnce(path);
        return;
      } catch (UncheckedIOException e) {
        if (attempt == 3 || !(e.getCause() instanceof java.nio.file.NoSuchFileException)) {
          throw e;
        }
      }
    }
  }

  private static void deleteOnce(Path path) {
    if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path, e);
    }
  }
}
