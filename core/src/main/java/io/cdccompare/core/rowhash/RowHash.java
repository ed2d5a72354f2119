package io.cdccompare.core.rowhash;

/** The hash of one row: lowercase hex of the hash function's output (32 characters for MD5). */
public record RowHash(String hex) {

  public RowHash {
    if (hex == null || hex.isEmpty() || hex.length() % 2 != 0) {
      throw new IllegalArgumentException("a row hash is a non-empty even number of hex digits");
    }
    for (int i = 0; i < hex.length(); i++) {
      char c = hex.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        throw new IllegalArgumentException("a row hash is lowercase hex, was '" + hex + "'");
      }
    }
  }

  static RowHash of(byte[] digest) {
    return new RowHash(TextValues.hex(digest, 0, digest.length));
  }

  @Override
  public String toString() {
    return hex;
  }
}
