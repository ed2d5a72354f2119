package io.cdccompare.core.rowhash.plan;

/**
 * A row hash rule of the configuration is wrong. The message starts with the path of the offending
 * entry, e.g. {@code tables[orders].columns[amount]: function 'upper' does not apply to type
 * DECIMAL}, so that the user can find it.
 */
public final class HashRulesException extends IllegalArgumentException {

  private final String path;

  public HashRulesException(String path, String problem) {
    super(path + ": " + problem);
    this.path = path;
  }

  /** Where in the configuration, e.g. {@code tables[orders].columns[amount]}. */
  public String path() {
    return path;
  }
}
