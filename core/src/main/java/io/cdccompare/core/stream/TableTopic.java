package io.cdccompare.core.stream;

import io.cdccompare.core.table.TableName;

/**
 * The name of a table's topic, {@code <prefix>.<schema>.<table>}, every character Kafka does not
 * allow in a topic name replaced by {@code _}. The capture writes there and every verifier reads
 * there, so both take the name from here.
 */
public final class TableTopic {
  /** Kafka's longest topic name. */
  public static final int MAX_LENGTH = 249;

  private TableTopic() {}

  /**
   * @throws IllegalArgumentException if the name would pass Kafka's 249 characters
   */
  public static String name(String prefix, TableName table) {
    String name = prefix + "." + sanitize(table.schema()) + "." + sanitize(table.table());
    if (name.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "topic name for " + table + " is longer than " + MAX_LENGTH + " characters");
    }
    return name;
  }

  private static String sanitize(String part) {
    return part.replaceAll("[^a-zA-Z0-9._-]", "_");
  }
}
