package io.cdccompare.core.rowhash;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The function that turns the UTF-8 bytes of a row's canonical text into its hash. MD5 is the
 * default (docs/design.md, "Row hash": what other tools using the same rule compute); any {@link
 * MessageDigest} algorithm, or an own implementation, can be plugged in. Both sides of a compare
 * must use the same function.
 *
 * <p>A {@code HashFunction} is an immutable, thread-safe factory; the {@link Digest}s it creates
 * are stateful and belong to one thread.
 */
public interface HashFunction {

  /** The name recorded with hashes so that both sides can check they agree, e.g. {@code MD5}. */
  String name();

  /** A new digest for use by one thread. */
  Digest newDigest();

  /** Hashes byte ranges, one at a time. Not thread-safe. */
  interface Digest {
    byte[] digest(byte[] input, int offset, int length);
  }

  static HashFunction md5() {
    return messageDigest("MD5");
  }

  static HashFunction sha256() {
    return messageDigest("SHA-256");
  }

  /**
   * A JCA {@link MessageDigest} algorithm.
   *
   * @throws IllegalArgumentException if this JVM does not provide it
   */
  static HashFunction messageDigest(String algorithm) {
    try {
      MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalArgumentException("unknown hash algorithm '" + algorithm + "'", e);
    }
    return new HashFunction() {
      @Override
      public String name() {
        return algorithm;
      }

      @Override
      public Digest newDigest() {
        try {
          MessageDigest digest = MessageDigest.getInstance(algorithm);
          return (input, offset, length) -> {
            digest.update(input, offset, length);
            return digest.digest();
          };
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException(e);
        }
      }

      @Override
      public String toString() {
        return algorithm;
      }
    };
  }
}
