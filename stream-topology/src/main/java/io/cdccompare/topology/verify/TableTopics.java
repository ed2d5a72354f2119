package io.cdccompare.topology.verify;

import io.cdccompare.core.table.TableName;

/**
 * The capture's table topic names, {@code <prefix>.<schema>.<table>} with every character Kafka
 * does not allow replaced by {@code _}. It must give exactly the name the capture writes to ({@code
 * compare-producer}'s {@code TopicLayout.topicName}, which this module cannot depend on at run
 * time); {@code TableTopicsTest} holds the two together.
 */
final class TableTopics {
  private TableTopics() {}

  static String topicName(String prefix, TableName table) {
    String name = prefix + "." + sanitize(table.schema()) + "." + sanitize(table.table());
    if (name.length() > 249) {
      throw new IllegalArgumentException(
          "topic name for " + table + " is longer than 249 characters");
    }
    return name;
  }

  private static String sanitize(String part) {
    return part.replaceAll("[^a-zA-Z0-9._-]", "_");
  }
}
