package io.cdccompare.embedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * Server binaries unpacked once from Maven artifacts and reused by every later run. The cache lives
 * in {@code ${java.io.tmpdir}/cdc-compare-cache} (or {@code -Dcdc.cache.dir}), outside any home
 * directory so a server run as an unprivileged user (PostgreSQL refuses root) can read it.
 * Unpacking goes to a scratch directory first and is moved into place atomically, so concurrent
 * runs never see half an archive.
 */
final class BinaryCache {
  private BinaryCache() {}

  static Path root() {
    String configured = System.getProperty("cdc.cache.dir");
    Path root =
        configured != null
            ? Path.of(configured)
            : Path.of(System.getProperty("java.io.tmpdir"), "cdc-compare-cache");
    try {
      Files.createDirectories(root);
      openForAll(root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the binary cache " + root, e);
    }
    return root;
  }

  /** Unpacks a tar archive ({@code .txz} or {@code .tar.gz}) into {@code root()/name} once. */
  static synchronized Path unpackTar(String name, ArchiveSource source) {
    Path target = root().resolve(name);
    if (Files.isDirectory(target)) {
      return target;
    }
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory(root(), name + ".unpacking-");
      openForAll(scratch);
      try (InputStream raw = new BufferedInputStream(source.open());
          InputStream unzipped =
              source.xz() ? new XZCompressorInputStream(raw) : new GzipCompressorInputStream(raw);
          TarArchiveInputStream tar = new TarArchiveInputStream(unzipped)) {
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
          Path out = scratch.resolve(entry.getName()).normalize();
          if (!out.startsWith(scratch)) {
            throw new IOException("archive entry escapes its directory: " + entry.getName());
          }
          if (entry.isDirectory()) {
            Files.createDirectories(out);
            openForAll(out);
          } else if (entry.isSymbolicLink()) {
            Files.createDirectories(out.getParent());
            Files.createSymbolicLink(out, Path.of(entry.getLinkName()));
          } else {
            Files.createDirectories(out.getParent());
            Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(out, permissions(entry.getMode()));
          }
        }
      }
      moveIntoPlace(scratch, target);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot unpack " + source.description() + " into " + target, e);
    } finally {
      if (scratch != null) {
        Directories.delete(scratch);
      }
    }
  }

  static void moveIntoPlace(Path scratch, Path target) throws IOException {
    try {
      Files.move(scratch, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException raced) {
      if (!Files.isDirectory(target)) {
        throw raced;
      }
      // another run unpacked the same archive first; keep theirs
    }
  }

  /** Read and execute for everyone, so an unprivileged server user can use the files. */
  static void openForAll(Path dir) throws IOException {
    Files.setPosixFilePermissions(
        dir,
        EnumSet.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_EXECUTE));
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> perms =
        EnumSet.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);
    if ((mode & 0100) != 0) {
      perms.add(PosixFilePermission.OWNER_EXECUTE);
      perms.add(PosixFilePermission.GROUP_EXECUTE);
      perms.add(PosixFilePermission.OTHERS_EXECUTE);
    }
    perms.add(PosixFilePermission.OWNER_WRITE);
    return perms;
  }

  /** Where an archive comes from. */
  interface ArchiveSource {
    InputStream open() throws IOException;

    boolean xz();

    String description();
  }
}
